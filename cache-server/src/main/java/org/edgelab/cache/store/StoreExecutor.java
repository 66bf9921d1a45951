package org.edgelab.cache.store;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded pool of threads that make one lane of a store's blocking calls ({@link StoreLane}; a
 * store has one executor per lane), so that no event loop waits on storage (nginx's
 * {@code thread_pool}, Traffic Server's AIO threads). At most {@code threads} calls run and
 * {@code queue} more wait for a thread; past that a call waits in line until one finishes. That
 * line is the back-pressure: each call in it belongs to a connection or a fill that makes no
 * progress (and reads nothing more) until its call has run, so the line holds at most one call per
 * connection and per fill, never an unbounded backlog. Calls are admitted first come, first served
 * and taken by the threads in that order; with more than one thread they run side by side and may
 * finish in any order. Threads are plain daemon threads (not Netty's, which BlockHound would treat
 * as event loops). Thread-safe.
 */
public final class StoreExecutor implements AutoCloseable {

    /** Default threads of a store's read lane: Traffic Server's default AIO threads per disk (8) times two, for page-cache copies that use CPU. */
    public static final int DEFAULT_THREADS = 16;
    /**
     * Default threads of a store's write lane: fewer than the read lane's, since a write the device
     * throttles (dirty-page limits, writeback) waits for the device however many threads wait with
     * it, and more threads would only park more fills in {@code pwrite}; Traffic Server's default AIO
     * threads per disk. CacheLib's Navy gives writes their own pool the same way
     * ({@code navyWriterThreads}, beside {@code navyReaderThreads}).
     */
    public static final int DEFAULT_WRITE_THREADS = 8;
    /** Default calls that may wait for a thread of a lane before callers wait in line. */
    public static final int DEFAULT_QUEUE = 1024;

    private static final System.Logger LOG = System.getLogger(StoreExecutor.class.getName());

    private final String name;
    private final int threads;
    private final int capacity;
    private final ThreadPoolExecutor pool;
    private final AtomicInteger admitted = new AtomicInteger();
    private final ArrayDeque<Runnable> line = new ArrayDeque<>();
    /** Calls made {@link #executeAlong along} others: run by the next thread to finish a call, or flushed when idle. */
    private final ConcurrentLinkedQueue<Runnable> riders = new ConcurrentLinkedQueue<>();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong waitedInLine = new AtomicLong();
    /** When a call last finished, or every thread last became busy, whichever came later ({@link #stalledNanos}). */
    private volatile long progressNanos = System.nanoTime();
    private volatile boolean closed;

    /** Starts {@code threads} threads named after {@code name}, with room for {@code queue} waiting calls. */
    public StoreExecutor(String name, int threads, int queue) {
        if (threads < 1 || queue < 0) {
            throw new IllegalArgumentException("store executor needs threads >= 1 and queue >= 0, got " + threads
                    + " and " + queue);
        }
        this.name = name;
        this.threads = threads;
        this.capacity = threads + queue;
        AtomicInteger n = new AtomicInteger();
        // The hand-off from a loop must not take a lock a worker may hold: a lock-free queue (bounded by
        // the admission count above it), and every thread started now so execute() never adds one.
        this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedTransferQueue<>(),
                r -> {
                    Thread t = new Thread(r, "edgelab-store-" + name + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.prestartAllCoreThreads();
    }

    /**
     * Runs {@code call} on a pool thread as soon as the pool has room; never blocks the caller.
     * {@code call} must not throw (it reports its own outcome).
     */
    public void execute(Runnable call) {
        if (closed) {
            throw new java.util.concurrent.RejectedExecutionException("store executor " + name + " is closed");
        }
        calls.incrementAndGet();
        Runnable wrapped = () -> {
            try {
                call.run();
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, "store call failed outside its handler", e);
            } finally {
                progressNanos = System.nanoTime();
                admitted.decrementAndGet();
                admitFromLine();
                runRiders();
            }
        };
        synchronized (line) {
            // first come, first served: nobody passes a caller already waiting in line
            int admittedNow = line.isEmpty() ? admitted.incrementAndGet() : -1;
            if (admittedNow == threads) {
                progressNanos = System.nanoTime(); // every thread busy from here: a stall is measured from now
            }
            if (admittedNow >= 0 && admittedNow <= capacity) {
                pool.execute(wrapped);
                return;
            }
            if (line.isEmpty()) {
                admitted.decrementAndGet();
            }
            line.addLast(wrapped);
        }
        waitedInLine.incrementAndGet();
        admitFromLine(); // a call may have finished meanwhile
    }

    /**
     * Runs {@code call}, a short call nobody waits for (a release), on a thread of this executor without waking one
     * for it: the next thread to finish a call runs it, and when no call is admitted (an idle lane) a call that runs
     * it is made at once. A hit costs two hand-offs to a store thread, its lookup and its release, and each wakes a
     * parked thread (a futex wake and a context switch, about a fifth of raw-log's CPU time at 10 MB in
     * docs/BENCHMARKS.md, 2026-12-06); riding along, the release costs none under load. Riders wait at most for the
     * calls admitted when they came, and each connection has at most one call in progress, so they stay bounded by the
     * connections. After {@link #close} the call runs on the caller's thread. Never blocks the caller apart from that.
     * {@code call} must not throw.
     */
    public void executeAlong(Runnable call) {
        if (closed) {
            call.run();
            return;
        }
        riders.add(call);
        // A thread that finishes a call counts itself out of admitted before it runs the riders: seeing a call
        // admitted here means that thread runs this rider later; seeing none, nobody would, so make a call for it.
        if (admitted.get() == 0) {
            try {
                execute(() -> { });
            } catch (java.util.concurrent.RejectedExecutionException closedMeanwhile) {
                runRiders();
            }
        }
    }

    private void runRiders() {
        Runnable r;
        while ((r = riders.poll()) != null) {
            try {
                r.run();
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, "store call made along others failed", e);
            }
        }
    }

    /**
     * Admits calls waiting in line, first come first served, while the pool has room. A call leaves
     * the line only into the pool's queue (under the line's lock, as in {@link #execute}): a close
     * that finds the line empty never shuts the pool down under a call in between.
     */
    private void admitFromLine() {
        while (true) {
            synchronized (line) {
                if (line.isEmpty()) {
                    return;
                }
                if (admitted.incrementAndGet() > capacity) {
                    admitted.decrementAndGet();
                    return;
                }
                pool.execute(line.pollFirst());
            }
        }
    }

    /**
     * Returns how long every thread of this lane has been busy without any call finishing, or 0 when a thread is free:
     * a lane whose device has stopped taking writes (throttled dirty pages, a failing disk) shows it within one call's
     * time, while a lane that is only busy finishes calls all the time. Lock-free; never blocks.
     */
    public long stalledNanos() {
        if (admitted.get() < threads) {
            return 0;
        }
        return Math.max(0, System.nanoTime() - progressNanos);
    }

    /** Returns the calls admitted to the pool (running or queued for a thread). */
    public int admitted() {
        return Math.max(0, admitted.get());
    }

    /** Returns the calls waiting in line for room in the pool (the back-pressure in effect). */
    public int waiting() {
        synchronized (line) {
            return line.size();
        }
    }

    /** Returns how many calls were made, and how many of them had to wait in line. */
    public long[] totals() {
        return new long[] {calls.get(), waitedInLine.get()};
    }

    /**
     * Stops taking calls and waits (up to {@code timeoutMillis}) for every call already taken,
     * including those waiting in line, to run: shutting down drains the executor.
     */
    public void close(long timeoutMillis) {
        closed = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (System.nanoTime() < deadline) {
            synchronized (line) {
                if (line.isEmpty()) {
                    break;
                }
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        pool.shutdown();
        try {
            if (!pool.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "store executor {0}: calls still running after {1} ms",
                        name, timeoutMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        runRiders(); // any left by the last calls: closing drains them too
    }

    /** Drains and stops, waiting up to 30 s. */
    @Override
    public void close() {
        close(30_000);
    }
}
