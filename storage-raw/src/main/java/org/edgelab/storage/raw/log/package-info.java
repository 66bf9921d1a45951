/**
 * The {@code raw-log} engine: objects appended into large preallocated segment files on one or
 * more disks, found through a compact in-memory hash index, evicted a whole segment at a time,
 * persisted through an index checkpoint plus a scan of the log written after it. Modelled on
 * Varnish MSE, Traffic Server's cache and CacheLib's BlockCache; split by job as Kafka's log is:
 * {@link org.edgelab.storage.raw.log.RawLogStore} coordinates, over the segment slots
 * ({@code SegmentSlots}, {@code Segment}, {@code SlotState}), the thread that reclaims segments off the writers' path
 * ({@code BackgroundReclaim}), what a reclaim does to objects
 * ({@code SegmentEviction}, with {@code CarriedTombstones} when it reclaims out of order), disk
 * health ({@code DiskHealth}), recovery ({@code LogRecovery}) and checkpoints ({@code Checkpointer}).
 * {@link org.edgelab.storage.raw.log.RawLogEngine} is the entry point.
 */
package org.edgelab.storage.raw.log;
