package org.edgelab.link;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads a link's counters every {@code period} on a daemon thread from {@link #start} to {@link #stop}, and gives the
 * rate the link carried while it was busy ({@link BusyRate}). A window's wall time also holds the load client's start and end (a process to fork,
 * connections to open, figures to write), when the link is idle; dividing by it would understate the link.
 * Thread-safe; {@link #stop} blocks for at most one reading.
 */
public final class LinkSampler {
    /** The default time between two readings. */
    public static final Duration PERIOD = Duration.ofMillis(100);

    /** One reading: when, and the counters then. */
    public record Sample(long nanos, LinkCounters counters) {
    }

    /**
     * Bits per second each way while busy: over the intervals between two readings in which the link sent at least
     * {@link #BUSY_SHARE} of what its cap allows towards the client (any bytes, for a link without a cap), less the
     * first and the last of them when there are at least {@link #EDGE_TRIM_MIN} (the load starts and stops inside
     * those, so they are only partly busy: counting them whole understated a 3 s run by 4 %, and more when a busy
     * machine delayed a reading and stretched an edge interval). Handshakes before a client's requests start and the
     * trickle at its end are left out with the idle time; 0 each way when no interval was busy.
     *
     * @param downBps bits per second towards the client
     * @param upBps   bits per second towards the server over the same intervals
     * @param seconds the busy intervals' length
     */
    public record BusyRate(double downBps, double upBps, double seconds) {
        /** The busy rate of {@code samples}, in the order they were read, on a link capped at {@code capBps} (0: none). */
        public static BusyRate of(List<Sample> samples, long capBps) {
            List<long[]> busy = new ArrayList<>(); // {bytes down, bytes up, nanos} of each busy interval
            for (int i = 1; i < samples.size(); i++) {
                Sample a = samples.get(i - 1);
                Sample b = samples.get(i);
                LinkCounters carried = b.counters().minus(a.counters());
                long dt = b.nanos() - a.nanos();
                boolean isBusy = capBps == 0 ? carried.bytesDown() > 0
                        : carried.bytesDown() * 8.0 >= BUSY_SHARE * capBps * dt / 1e9 && carried.bytesDown() > 0;
                if (isBusy) {
                    busy.add(new long[] {carried.bytesDown(), carried.bytesUp(), dt});
                }
            }
            List<long[]> counted = busy.size() >= EDGE_TRIM_MIN ? busy.subList(1, busy.size() - 1) : busy;
            long down = 0;
            long up = 0;
            long nanos = 0;
            for (long[] interval : counted) {
                down += interval[0];
                up += interval[1];
                nanos += interval[2];
            }
            if (nanos == 0) {
                return new BusyRate(0, 0, 0);
            }
            double seconds = nanos / 1e9;
            return new BusyRate(down * 8 / seconds, up * 8 / seconds, seconds);
        }
    }

    /** The fewest busy intervals from which the first and the last are left out as the load's partly busy edges. */
    public static final int EDGE_TRIM_MIN = 5;

    /** The share of its cap a link must send in an interval for the interval to count as busy. */
    public static final double BUSY_SHARE = 0.1;

    private final NetworkLink link;
    private final Duration period;
    private final List<Sample> samples = new ArrayList<>();
    private ScheduledExecutorService timer;

    /** A sampler of {@code link} reading every {@code period}. */
    public LinkSampler(NetworkLink link, Duration period) {
        this.link = link;
        this.period = period;
    }

    /** Forgets earlier readings, reads once now and then every period. */
    public synchronized void start() {
        stopTimer();
        synchronized (samples) {
            samples.clear();
        }
        read();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "link-sampler");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::read, period.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Stops the readings, reads once more and returns them all, oldest first. */
    public List<Sample> stop() {
        synchronized (this) {
            stopTimer();
            read();
            synchronized (samples) {
                return List.copyOf(samples);
            }
        }
    }

    /** Stops the readings without a last one (after a failed window, when the link may be gone); idempotent. */
    public synchronized void cancel() {
        stopTimer();
    }

    private void stopTimer() {
        if (timer != null) {
            // a reading under way finishes (it waits for tc); the later ones are cancelled
            timer.shutdown();
            try {
                timer.awaitTermination(period.toMillis() * 10 + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            timer = null;
        }
    }

    private void read() {
        LinkCounters now = link.counters();
        synchronized (samples) {
            samples.add(new Sample(System.nanoTime(), now));
        }
    }
}
