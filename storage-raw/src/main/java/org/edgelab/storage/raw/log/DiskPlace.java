package org.edgelab.storage.raw.log;

/**
 * Which disk of a {@code raw-log} store one {@link RawLogStore} is: disk {@code index} of {@code count}, as its layout
 * file records it, so that a disk moved to another place in the list, or a directory of another layout, is refused at
 * open. A lone disk is written as layout format 1 (the same files as before stores kept one log per disk); a disk of
 * several as format 2, one log per disk ({@link RawLogShards}). Immutable.
 *
 * @param index the disk's position in the store's {@code disks} list
 * @param count how many disks the store has
 */
record DiskPlace(int index, int count) {

    /** The one disk of a store with one disk. */
    static final DiskPlace ALONE = new DiskPlace(0, 1);

    DiskPlace {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("disk " + index + " of " + count);
        }
    }

    /** The layout format this disk is written in: 1 alone, 2 as one log of several. */
    int format() {
        return count == 1 ? 1 : 2;
    }
}
