package org.edgelab.storage.lmdb;

import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.api.StorageFullException;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/**
 * The one thread that writes to LMDB. Callers queue operations (bounded, so writers that outrun
 * the disk block instead of filling memory); the thread applies up to {@code batch-max} of them
 * in one write transaction and commits, then tells each operation. When the map is full it first
 * lets the pages the last commit freed become reusable (LMDB reuses them only after one more
 * commit), then asks the store to evict, commits the deletions and retries; when nothing more can
 * be evicted the operations that add data fail with {@link StorageFullException} and the rest
 * still commit.
 * A full file system under the map (ENOSPC, or LMDB's EIO for a short write with no room left)
 * refuses the same way, without evicting: the store stops admitting and keeps what it has.
 * Thread-safe.
 */
final class WriteBatcher implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WriteBatcher.class.getName());
    /** How long a batch of chunks only (nobody waiting) waits for more operations before it commits. */
    private static final long GATHER_MICROS = 2000;
    /** How long a batch that meets a full map keeps evicting, or waiting for readers, before it is refused. */
    private static final long MAP_FULL_PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** An operation the writer thread applies inside a write transaction. */
    interface Op {
        /** Bytes of body or metadata this operation adds (0 for deletions). */
        long addedBytes();

        /** Returns whether a caller waits for this operation's commit (so its batch commits at once). */
        default boolean awaited() {
            return true;
        }

        /** Applies the operation; runs on the writer thread inside {@code txn}. */
        void apply(Txn<ByteBuffer> txn, Tables tables);

        /** Called on the writer thread once the transaction holding the operation committed. */
        void committed();

        /** Called on the writer thread when the operation could not be committed. */
        void failed(StorageException e);
    }

    /** The databases and the writer thread's scratch buffers. Confined to the writer thread. */
    static final class Tables {
        final Dbi<ByteBuffer> meta;
        final Dbi<ByteBuffer> chunks;
        private final ByteBuffer chunkKey = ByteBuffer.allocateDirect(Layout.CHUNK_KEY_BYTES);
        private final ByteBuffer metaKey = ByteBuffer.allocateDirect(Layout.MAX_META_KEY_BYTES);

        Tables(Dbi<ByteBuffer> meta, Dbi<ByteBuffer> chunks) {
            this.meta = meta;
            this.chunks = chunks;
        }

        ByteBuffer chunkKey(long id, int index) {
            return Layout.chunkKey(chunkKey, id, index);
        }

        ByteBuffer metaKey(byte[] key) {
            metaKey.clear();
            metaKey.put(key).flip();
            return metaKey;
        }
    }

    /** What the store does when LMDB reports a full map. */
    interface SpaceMaker {
        /** Evicts objects worth about {@code bytes}, queueing their deletion; false when nothing is evictable. */
        boolean evictForMapFull(long bytes);

        /** Returns whether read transactions are open (their snapshots keep freed pages from reuse). */
        boolean snapshotsHeld();
    }

    private static final Op WAKE = new Op() {
        @Override
        public long addedBytes() {
            return 0;
        }

        @Override
        public boolean awaited() {
            return false;
        }

        @Override
        public void apply(Txn<ByteBuffer> txn, Tables tables) {
        }

        @Override
        public void committed() {
        }

        @Override
        public void failed(StorageException e) {
        }
    };

    private final Env<ByteBuffer> env;
    private final Tables tables;
    private final SpaceMaker spaceMaker;
    private final int batchMax;
    private final long batchMaxBytes;
    private final BlockingQueue<Op> queue;
    private final ConcurrentLinkedQueue<Op> deferred = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean stopping;
    private volatile long batches;
    private volatile long mapFullRetries;
    private volatile long fileSystemFullRefusals;
    /**
     * Whether a transaction committed since the last {@link #tick}: the pages it freed are not
     * reusable until one more commits. Writer thread only.
     */
    private boolean freedPagesAwaitTick;
    private final Path dir;

    WriteBatcher(Env<ByteBuffer> env, Path dir, Tables tables, SpaceMaker spaceMaker, int batchMax, long batchMaxBytes,
                 String name) {
        this.env = env;
        this.dir = dir;
        this.tables = tables;
        this.spaceMaker = spaceMaker;
        this.batchMax = batchMax;
        this.batchMaxBytes = batchMaxBytes;
        this.queue = new ArrayBlockingQueue<>(Math.max(4, 2 * batchMax));
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Queues an operation behind the ones already queued, blocking while the queue is full. */
    void submit(Op op) throws InterruptedIOException {
        if (stopping) {
            throw new IllegalStateException("the LMDB store is closed");
        }
        try {
            queue.put(op);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while queueing an LMDB write");
        }
    }

    /**
     * Queues a deletion without ever blocking (for callers that hold locks); deferred operations
     * run at the start of the next batch, ahead of queued ones.
     */
    void submitDeferred(Op op) {
        deferred.add(op);
        queue.offer(WAKE);
        if (!thread.isAlive()) {
            // Closed: nothing will run it. Chunks left behind are deleted at the next open.
            for (Op d; (d = deferred.poll()) != null; ) {
                d.failed(new StorageException("the LMDB store closed before this change was written"));
            }
        }
    }

    long batches() {
        return batches;
    }

    long mapFullRetries() {
        return mapFullRetries;
    }

    /** Batches whose writes were refused because the file system under the store is full. */
    long fileSystemFullRefusals() {
        return fileSystemFullRefusals;
    }

    private void run() {
        List<Op> batch = new ArrayList<>();
        while (true) {
            try {
                batch.clear();
                for (Op d; (d = deferred.poll()) != null; ) {
                    batch.add(d);
                }
                Op first = batch.isEmpty() ? queue.poll(50, TimeUnit.MILLISECONDS) : queue.poll();
                long bytes = 0;
                boolean awaited = false;
                for (Op op = first; op != null; op = nextOp(awaited)) {
                    if (op != WAKE) {
                        batch.add(op);
                        bytes += op.addedBytes();
                        awaited |= op.awaited();
                    }
                    if (batch.size() >= batchMax || bytes >= batchMaxBytes) {
                        break;
                    }
                }
                if (batch.isEmpty()) {
                    if (stopping && queue.isEmpty() && deferred.isEmpty()) {
                        return;
                    }
                    continue;
                }
                runBatch(batch);
                batches++;
            } catch (InterruptedException e) {
                // close() interrupts only after stopping is set; keep draining.
            } catch (RuntimeException | Error e) {
                LOG.log(Level.ERROR, "the LMDB writer thread failed a batch", e);
                for (Op op : batch) {
                    op.failed(new StorageException("the LMDB writer failed: " + e, e));
                }
            }
        }
    }

    /**
     * Returns the next queued operation. While nobody waits for the batch (only chunks of objects
     * still being written), waits briefly for more, so that an object's chunks and its commit
     * share one transaction (and, with {@code sync=full}, one fsync) instead of one each.
     */
    private Op nextOp(boolean batchAwaited) throws InterruptedException {
        Op op = queue.poll();
        if (op == null && !batchAwaited && !stopping) {
            op = queue.poll(GATHER_MICROS, TimeUnit.MICROSECONDS);
        }
        return op;
    }

    private void runBatch(List<Op> ops) {
        List<Op> batch = ops;
        long deadline = System.nanoTime() + MAP_FULL_PATIENCE_NANOS;
        while (true) {
            try {
                commit(batch);
                return;
            } catch (Env.MapFullException e) {
                mapFullRetries++;
                List<Op> deletions = batch.stream().filter(op -> op.addedBytes() == 0).toList();
                if (!deletions.isEmpty()) {
                    // Pages a transaction frees are reusable only by later ones: delete first, then write.
                    commitOrFail(deletions);
                    tick();
                    batch = batch.stream().filter(op -> op.addedBytes() > 0).toList();
                    if (batch.isEmpty()) {
                        return;
                    }
                    continue;
                }
                if (freedPagesAwaitTick) {
                    // The last commit's frees (often the deletions that emptied the map) become reusable only now.
                    tick();
                    continue;
                }
                long wanted = Math.max(1, batch.stream().mapToLong(Op::addedBytes).sum());
                boolean inTime = System.nanoTime() < deadline;
                if (inTime && (spaceMaker.evictForMapFull(2 * wanted) | !deferred.isEmpty())) {
                    drainDeferredAlone();
                    tick();
                    continue;
                }
                if (inTime && spaceMaker.snapshotsHeld()) {
                    // Pages freed since the oldest open read snapshot are not reusable yet: let readers move on.
                    pause();
                    tick();
                    continue;
                }
                LOG.log(Level.WARNING, "the LMDB map is full and nothing more can be evicted; refusing "
                        + batch.stream().filter(op -> op.addedBytes() > 0).count() + " writes");
                List<Op> rest = new ArrayList<>();
                for (Op op : batch) {
                    if (op.addedBytes() > 0) {
                        op.failed(LmdbErrors.translate(e, "writing"));
                    } else {
                        rest.add(op);
                    }
                }
                if (!rest.isEmpty()) {
                    commitOrFail(rest);
                }
                return;
            } catch (LmdbException e) {
                StorageException se = LmdbErrors.translate(e, "committing a write batch", dir);
                if (se instanceof StorageFullException) {
                    // A full file system: refuse what adds bytes; deletions may still go through (they reuse pages).
                    fileSystemFullRefusals++;
                    List<Op> rest = new ArrayList<>();
                    for (Op op : batch) {
                        if (op.addedBytes() > 0) {
                            op.failed(se);
                        } else {
                            rest.add(op);
                        }
                    }
                    if (!rest.isEmpty()) {
                        commitOrFail(rest);
                    }
                    return;
                }
                batch.forEach(op -> op.failed(se));
                return;
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drainDeferredAlone() {
        List<Op> drops = new ArrayList<>();
        for (Op d; (d = deferred.poll()) != null; ) {
            drops.add(d);
        }
        if (!drops.isEmpty()) {
            commitOrFail(drops);
        }
    }

    /**
     * Commits a one-record transaction. LMDB reuses a page freed by transaction N only once N is
     * older than the last committed transaction (and than every open read snapshot), so after the
     * deletions commit, this makes their pages available to the retried batch.
     */
    private void tick() {
        freedPagesAwaitTick = false; // also when it fails: one try per commit, so a full map cannot loop here
        try (Txn<ByteBuffer> txn = env.txnWrite()) {
            ByteBuffer v = ByteBuffer.allocateDirect(8).putLong(0, System.nanoTime());
            tables.meta.put(txn, tables.metaKey(Layout.TICK_KEY), v);
            txn.commit();
        } catch (LmdbException e) {
            LOG.log(Level.WARNING, "could not commit the transaction that frees deleted pages: " + e);
        }
    }

    /**
     * Commits operations that add no bytes (deletions, metadata). In a full map even a deletion
     * needs pages for its copy-on-write path, so a map-full here waits, as a write does, for the
     * pages the last commit or the open read snapshots still hold, before it fails the operations.
     */
    private void commitOrFail(List<Op> ops) {
        long deadline = System.nanoTime() + MAP_FULL_PATIENCE_NANOS;
        while (true) {
            try {
                commit(ops);
                return;
            } catch (Env.MapFullException e) {
                mapFullRetries++;
                if (freedPagesAwaitTick) {
                    tick();
                    continue;
                }
                if (System.nanoTime() < deadline && spaceMaker.snapshotsHeld()) {
                    pause();
                    tick();
                    continue;
                }
                fail(ops, e);
                return;
            } catch (LmdbException e) {
                fail(ops, e);
                return;
            }
        }
    }

    private void fail(List<Op> ops, LmdbException e) {
        StorageException se = LmdbErrors.translate(e, "deleting", dir);
        ops.forEach(op -> op.failed(se));
    }

    private void commit(List<Op> ops) {
        try (Txn<ByteBuffer> txn = env.txnWrite()) {
            for (Op op : ops) {
                op.apply(txn, tables);
            }
            txn.commit();
        }
        freedPagesAwaitTick = true;
        for (Op op : ops) {
            op.committed();
        }
    }

    /** Commits everything queued, then stops the thread. */
    @Override
    public void close() throws InterruptedIOException {
        stopping = true;
        queue.offer(WAKE);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while stopping the LMDB writer");
        }
    }
}
