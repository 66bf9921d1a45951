package org.edgelab.storage.raw.log;

import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Reclaims segments off the writers' path (as CacheLib reclaims regions and Kafka's cleaner compacts beside the
 * appenders): a rotation that leaves fewer than {@link SegmentSlots#KEPT_FREE} slots free chooses the victims as
 * before (the oldest sealed segments nothing pins) and hands them to this log's one thread, which has
 * {@link SegmentEviction} re-append each victim's read objects one at a time and evict the rest, then frees it.
 * Writers never copy: a writer that finds no free slot while a reclaim is queued or under way waits for it (up to
 * {@link SegmentSlots#RECLAIM_WAIT_NANOS}) rather than evict a segment of read objects itself.
 *
 * <p>Before it, the rotating writer reclaimed inline, copying a segment's read objects with the store's lock held:
 * under a uniform 1 GB set in a 4 GB store that stopped every miss for 1-2 s per reclaim (docs/BENCHMARKS.md,
 * 2026-12-07).
 *
 * <p>Thread-safety: the {@link SegmentSlots.Reclaimer} calls come with the store's lock held and never block; the
 * thread takes the store's lock to begin and end each reclaim and per object copied; {@link #stop} may be called from
 * any thread. The thread is never interrupted: an interrupt would close the segments' file channels.
 */
final class BackgroundReclaim implements SegmentSlots.Reclaimer {

    private static final System.Logger LOG = System.getLogger(BackgroundReclaim.class.getName());

    private final SegmentSlots slots;
    private final SegmentEviction eviction;
    private final ReentrantLock lock;
    private final Condition queued;
    private final String name;
    /** A victim handed over, with the generation it held then. */
    private record Victim(Segment segment, long generation) {
    }

    /** Victims handed over, oldest first; the store's lock. */
    private final ArrayDeque<Victim> victims = new ArrayDeque<>();
    private final LongAdder reclaimed = new LongAdder();
    private volatile boolean stopping;
    private Thread thread;

    BackgroundReclaim(SegmentSlots slots, SegmentEviction eviction, String name) {
        this.slots = slots;
        this.eviction = eviction;
        this.lock = slots.lock();
        this.queued = lock.newCondition();
        this.name = name;
    }

    /** Starts the thread (once the log is recovered). */
    void start() {
        thread = new Thread(this::run, "raw-log-reclaim-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Stops the thread and waits for it: the reclaim under way stops copying after the object under way, and it and
     * every victim still queued are evicted and freed. Blocks up to 30 s.
     */
    void stop() {
        lock.lock();
        try {
            stopping = true;
            queued.signalAll();
        } finally {
            lock.unlock();
        }
        if (thread != null) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Segments this thread has reclaimed and freed (stats, tests). */
    long reclaimed() {
        return reclaimed.sum();
    }

    @Override
    public void evict(Segment victim) {
        eviction.evict(victim);
    }

    @Override
    public boolean wouldLose(Segment victim) {
        return eviction.wouldLose(victim);
    }

    @Override
    public void activated() {
        eviction.activated();
    }

    @Override
    public boolean reclaimLater(Segment victim) {
        if (stopping || thread == null) {
            return false;
        }
        victims.addLast(new Victim(victim, victim.generation()));
        queued.signal();
        return true;
    }

    private void run() {
        while (true) {
            Segment victim;
            long generation;
            lock.lock();
            try {
                while (victims.isEmpty() && !stopping) {
                    queued.awaitUninterruptibly();
                }
                Victim next = victims.pollFirst();
                if (next == null) {
                    return; // stopping, nothing left
                }
                victim = next.segment();
                generation = next.generation();
                if (!slots.isVictim(victim, generation)) {
                    slots.freeReclaimed(victim, generation); // its disk failed since: nothing of it is left to reclaim
                    continue;
                }
                try {
                    eviction.carry(victim, generation); // before any copy: a copy's commit must come after them
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "raw-log could not carry the tombstones of " + victim + ": " + e, e);
                }
            } finally {
                lock.unlock();
            }
            reclaim(victim, generation);
        }
    }

    /**
     * Copies the victim's read objects forward (none once stopping), evicts the rest and frees it; its tombstones are
     * carried already.
     */
    private void reclaim(Segment victim, long generation) {
        Set<Long> moved = Set.of();
        try {
            moved = eviction.reinsertRead(victim, generation, () -> stopping);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "raw-log's background reclaim of " + victim + " failed; its objects"
                    + " not copied yet are evicted: " + e, e);
        } finally {
            lock.lock();
            try {
                if (slots.isVictim(victim, generation)) { // else its disk failed meanwhile, its objects dropped with it
                    eviction.evictRest(victim, generation, moved);
                    reclaimed.increment();
                }
                slots.freeReclaimed(victim, generation);
            } finally {
                lock.unlock();
            }
        }
    }
}
