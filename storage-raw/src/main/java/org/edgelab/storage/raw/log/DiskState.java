package org.edgelab.storage.raw.log;

/** The health of one {@code raw-log} disk, as shown in {@code StoreStats.extra}. */
public enum DiskState {
    /** Serving reads and taking writes. */
    ONLINE,
    /** An I/O error took the disk out: its objects are misses, it takes no writes, readers still pin it. */
    FAILING,
    /**
     * Out of service: it could not be opened, or it failed and every reader has let go of it; probed until it answers,
     * then taken back empty (engine setting {@code disk-probe-interval}).
     */
    OFFLINE
}
