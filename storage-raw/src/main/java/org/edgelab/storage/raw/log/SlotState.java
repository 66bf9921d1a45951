package org.edgelab.storage.raw.log;

/** Where one segment slot stands in the circular log. Changes under the store's lock, in {@link SegmentSlots}. */
enum SlotState {
    /** Holds nothing live; may be activated. */
    FREE,
    /** The one slot taking appends. */
    ACTIVE,
    /** Written and closed to appends; sealed slots are reclaimed oldest first. */
    SEALED,
    /** On a disk that failed or could not be opened: out until the disk is taken back ({@link DiskReturn}), empty. */
    DEAD
}
