package org.edgelab.cache.store;

import org.edgelab.storage.api.StoreCall;

/**
 * Which of a store's two executors makes a blocking call: {@link #READ} for the calls a hit makes,
 * {@link #WRITE} for those only a fill, a revalidation or an invalidation makes, so that writers
 * stuck in slow I/O never hold the threads hits need (CacheLib's Navy splits its reader and writer
 * threads the same way). The one place a {@link StoreCall} is mapped to a lane. Immutable.
 */
public enum StoreLane {
    /** Lookups, reads of stored objects and their release, following a write, usage. */
    READ,
    /** Opening, writing, committing and aborting a write; removals and metadata updates. */
    WRITE;

    /** Returns the lane of {@code call} (every kind has one: adding a kind fails to compile here). */
    public static StoreLane of(StoreCall call) {
        return switch (call) {
            case LOOKUP, READ, VIEW, FILE_SLICE, RELEASE, USAGE, FOLLOW -> READ;
            case BEGIN, WRITE, COMMIT, ABORT, REMOVE, UPDATE_METADATA -> WRITE;
        };
    }

    /** Returns the lane of a body that makes both kinds of call: {@link #WRITE} if either is a write. */
    public static StoreLane of(StoreCall call, StoreCall alsoCall) {
        return of(call) == WRITE || of(alsoCall) == WRITE ? WRITE : READ;
    }
}
