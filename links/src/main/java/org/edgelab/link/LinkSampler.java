package org.edgelab.link;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads a link's counters every {@code period} on a daemon thread from {@link #start} to {@link #stop}, and gives the
 * rate the link carried while it was busy: from the last reading before the first bytes went down to the first
 * reading after the last ones. A window's wall time also holds the load client's start and end (a process to fork,
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
     * Bits per second each way while busy: the span from the last reading before the down counter first moved to
     * the first reading after it last moved, or 0 each way when it never moved.
     *
     * @param downBps bits per second towards the client
     * @param upBps   bits per second towards the server over the same span
     * @param seconds the busy span
     */
    public record BusyRate(double downBps, double upBps, double seconds) {
        /** The busy rate of {@code samples}, in the order they were read. */
        public static BusyRate of(List<Sample> samples) {
            int first = -1;
            int last = -1;
            for (int i = 1; i < samples.size(); i++) {
                if (samples.get(i).counters().bytesDown() > samples.get(i - 1).counters().bytesDown()) {
                    if (first < 0) {
                        first = i - 1;
                    }
                    last = i;
                }
            }
            if (first < 0) {
                return new BusyRate(0, 0, 0);
            }
            Sample a = samples.get(first);
            Sample b = samples.get(last);
            double seconds = (b.nanos() - a.nanos()) / 1e9;
            LinkCounters carried = b.counters().minus(a.counters());
            return new BusyRate(carried.bytesDown() * 8 / seconds, carried.bytesUp() * 8 / seconds, seconds);
        }
    }

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
