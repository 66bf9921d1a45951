package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Checkpoints a {@code raw-log}'s index: every {@code checkpoint-interval} on a background thread
 * and at close, a snapshot of the index and the slots' generations taken under the store's lock,
 * written (after forcing the segments it covers) to the first online disk; with
 * {@code sync=interval} it also forces written segments once a second. Thread-safe: one checkpoint
 * at a time; {@link #checkpoint} blocks on the disks.
 */
final class Checkpointer {

    private static final System.Logger LOG = System.getLogger(Checkpointer.class.getName());

    private final RawLogConfig config;
    private final ReentrantLock lock;
    private final LogIndex index;
    private final SegmentSlots slots;
    private final DiskHealth disks;
    private final Object writing = new Object();
    private final LongAdder written = new LongAdder();
    private final ScheduledExecutorService background;
    private volatile long lastMillis = -1;

    Checkpointer(RawLogConfig config, ReentrantLock lock, LogIndex index, SegmentSlots slots, DiskHealth disks) {
        this.config = config;
        this.lock = lock;
        this.index = index;
        this.slots = slots;
        this.disks = disks;
        this.background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "raw-log-checkpoint");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the periodic checkpoints and, with {@code sync=interval}, the forcing once a second. */
    void start() {
        if (config.checkpointIntervalMillis() > 0) {
            long every = config.checkpointIntervalMillis();
            background.scheduleWithFixedDelay(() -> {
                try {
                    checkpoint();
                } catch (IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "raw-log checkpoint failed: " + e);
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
        if (config.sync() == RawLogConfig.SyncMode.INTERVAL) {
            background.scheduleWithFixedDelay(slots::forceDirty, 1, 1, TimeUnit.SECONDS);
        }
    }

    /** Stops the background work, waiting for a checkpoint in progress. */
    void stop() {
        background.shutdown();
        try {
            background.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the background thread at once (the store failed to open). */
    void abandon() {
        background.shutdownNow();
    }

    /** Writes a checkpoint of the index covering the log up to now (after forcing the segments). */
    void checkpoint() throws IOException {
        synchronized (writing) {
            Checkpoint snapshot;
            int target = -1;
            lock.lock();
            try {
                for (int d = 0; d < disks.count() && target < 0; d++) {
                    if (disks.online(d)) {
                        target = d;
                    }
                }
                if (target < 0 || slots.allClosed()) {
                    return;
                }
                long[] entries;
                slots.lookupLock().lock(); // lookups change hit counts and drop damaged objects under it alone
                try {
                    entries = new long[index.size() * 3];
                    int[] n = {0};
                    index.forEach((hash, location, extent) -> {
                        entries[n[0]++] = hash;
                        entries[n[0]++] = location;
                        entries[n[0]++] = extent;
                    });
                } finally {
                    slots.lookupLock().unlock();
                }
                snapshot = new Checkpoint(config.segmentSize(), slots.nextGeneration(), slots.positionGeneration(),
                        slots.positionOffset(), slots.generations(), entries);
            } finally {
                lock.unlock();
            }
            long started = System.nanoTime();
            slots.forceDirty();
            snapshot.writeTo(disks.dir(target));
            written.increment();
            lastMillis = (System.nanoTime() - started) / 1_000_000;
        }
    }

    long written() {
        return written.sum();
    }

    long lastMillis() {
        return lastMillis;
    }
}
