package org.edgelab.storage.lmdb;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.lmdbjava.Env;
import org.lmdbjava.Txn;

/**
 * Read transactions for any thread (the environment is opened with {@code MDB_NOTLS}): a reader
 * borrows a slot, whose transaction is renewed on a fresh snapshot, and gives it back, which
 * resets it so it pins no pages. Also counts map leases: references that lent map memory
 * (views) which may still be read without a transaction. The environment (and so the map) is
 * closed only after the last transaction and the last lease ended. Thread-safe.
 */
final class ReadTxnPool {

    private static final System.Logger LOG = System.getLogger(ReadTxnPool.class.getName());

    /** A read transaction with the scratch key buffers of the thread that borrowed it. */
    static final class Slot {
        final Txn<ByteBuffer> txn;
        final ByteBuffer chunkKey = ByteBuffer.allocateDirect(Layout.CHUNK_KEY_BYTES);
        final ByteBuffer metaKey = ByteBuffer.allocateDirect(Layout.MAX_META_KEY_BYTES);

        private Slot(Txn<ByteBuffer> txn) {
            this.txn = txn;
        }

        /** Fills the slot's metadata key buffer with {@code key} and returns it. */
        ByteBuffer metaKey(byte[] key) {
            metaKey.clear();
            metaKey.put(key).flip();
            return metaKey;
        }
    }

    private final Env<ByteBuffer> env;
    private final ConcurrentLinkedQueue<Slot> idle = new ConcurrentLinkedQueue<>();
    private final Semaphore permits;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger mapLeases = new AtomicInteger();
    private volatile boolean closing;

    ReadTxnPool(Env<ByteBuffer> env, int maxSlots) {
        this.env = env;
        this.permits = new Semaphore(maxSlots);
    }

    /** Borrows a slot whose transaction sees the latest committed snapshot. */
    Slot acquire() {
        active.incrementAndGet();
        try {
            if (closing) {
                throw new IllegalStateException("the LMDB store is closed");
            }
            permits.acquireUninterruptibly();
            Slot slot = idle.poll();
            if (slot == null) {
                return new Slot(env.txnRead());
            }
            try {
                slot.txn.renew();
            } catch (RuntimeException e) {
                permits.release();
                slot.txn.close();
                throw e;
            }
            return slot;
        } catch (RuntimeException e) {
            active.decrementAndGet();
            throw e;
        }
    }

    /** Returns a slot: its transaction is reset at once. */
    void release(Slot slot) {
        try {
            slot.txn.reset();
            idle.offer(slot);
        } catch (RuntimeException e) {
            slot.txn.close();
            LOG.log(Level.WARNING, "dropped a read transaction that failed to reset", e);
        } finally {
            permits.release();
            active.decrementAndGet();
        }
    }

    /** Returns the number of transactions in use. */
    int inUse() {
        return active.get();
    }

    /**
     * Takes a map lease: lent map memory may be read until {@link #releaseMap()}, so the
     * environment stays open (mapped) until then. Holds no transaction and pins no snapshot.
     */
    void leaseMap() {
        mapLeases.incrementAndGet();
        if (closing) {
            mapLeases.decrementAndGet();
            throw new IllegalStateException("the LMDB store is closed");
        }
    }

    /** Ends a lease taken by {@link #leaseMap()}. */
    void releaseMap() {
        mapLeases.decrementAndGet();
    }

    /** Returns the number of map leases held. */
    int mapLeases() {
        return mapLeases.get();
    }

    /**
     * Refuses new transactions and leases, waits up to {@code timeoutMillis} for those in use to
     * end and closes the idle transactions. Returns false (leaving the environment to be leaked
     * rather than closed under a live transaction or lent memory) when some did not end in time.
     */
    boolean closeAll(long timeoutMillis) throws InterruptedException {
        closing = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (active.get() > 0 || mapLeases.get() > 0) {
            if (System.nanoTime() > deadline) {
                LOG.log(Level.ERROR, active.get() + " LMDB read transactions and " + mapLeases.get()
                        + " references with lent views are still open (unclosed StoredObjects?);"
                        + " the environment is left open rather than unmapped under them");
                return false;
            }
            Thread.sleep(1);
        }
        for (Slot s; (s = idle.poll()) != null; ) {
            s.txn.close();
        }
        return true;
    }
}
