package org.edgelab.storage.api;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The calls of the storage contract that an engine may implement by waiting: for a disk (a read,
 * write, fsync, open or rename) or for another thread (a lock held across I/O, a hand-off to a
 * writer thread, a page fault of a memory map). Each engine declares which ones it may block in
 * ({@link ObjectStore#blockingCalls()}), so a caller on an event loop runs exactly those elsewhere.
 *
 * <p>Calls not listed here never block in any engine (the contract suite checks it):
 * {@link ObjectStore#engineName()}, {@link ObjectWriter#key()}, {@link ObjectWriter#written()},
 * {@link StoredObject#key()}, {@link StoredObject#metadata()}, {@link StoredObject#availableLength()},
 * {@link StoredObject#isComplete()} and {@link StoredObject#awaitLength(long)} (which returns a
 * future). {@link ObjectStore#close()} may always block. Immutable.
 */
public enum StoreCall {
    /** {@link ObjectStore#lookup}. */
    LOOKUP,
    /** {@link ObjectStore#begin}. */
    BEGIN,
    /** {@link ObjectStore#remove}. */
    REMOVE,
    /** {@link ObjectStore#updateMetadata}. */
    UPDATE_METADATA,
    /** {@link ObjectStore#usage} and {@link ObjectStore#stats}. */
    USAGE,
    /** {@link ObjectWriter#write}. */
    WRITE,
    /** {@link ObjectWriter#follow}. */
    FOLLOW,
    /** {@link ObjectWriter#commit(ObjectMetadata)} and {@link ObjectWriter#commit()}. */
    COMMIT,
    /** {@link ObjectWriter#abort} and {@link ObjectWriter#close} of a writer that was not committed. */
    ABORT,
    /** {@link StoredObject#read}. */
    READ,
    /** {@link StoredObject#view}, and touching the bytes of the view it returns (a memory map may fault). */
    VIEW,
    /**
     * {@link StoredObject#fileSlice}. The transfer of the slice, which the caller does, is not part of the call: an
     * engine whose slice may lie on a device declares this call and brings the slice's bytes into memory before
     * returning it, so that the transfer (a {@code sendfile} on an event loop) does not wait for the device.
     */
    FILE_SLICE,
    /** {@link StoredObject#close}. */
    RELEASE;

    /** Returns a new, modifiable set of no calls (an engine that never blocks: memory). */
    public static Set<StoreCall> none() {
        return EnumSet.noneOf(StoreCall.class);
    }

    /** Returns a new, modifiable set of every call (what a caller must assume of an engine it knows nothing of). */
    public static Set<StoreCall> all() {
        return EnumSet.allOf(StoreCall.class);
    }

    /** Returns an unmodifiable set of every call except {@code first} and {@code rest}. */
    public static Set<StoreCall> allExcept(StoreCall first, StoreCall... rest) {
        return Collections.unmodifiableSet(EnumSet.complementOf(EnumSet.of(first, rest)));
    }
}
