package org.edgelab.loadgen;

import java.util.Locale;

import org.edgelab.loadgen.workload.RequestGenerator;
import org.edgelab.loadgen.workload.Workload;

/**
 * Segment {@code index} of {@code count} of a load, what one of {@code count} load workers sends: request
 * numbers {@code index, index + count, index + 2 count, ...} of the whole load, so the workers together send
 * exactly the requests of one undivided run. A worker's local request k is the load's request
 * {@code index + k * count}: an open-loop rate R becomes R/count per worker with a phase offset of
 * {@code index/count} of the worker's inter-arrival interval (the combined schedule stays evenly spaced, ramps
 * included), a hit-ratio workload's first-time requests stay where the undivided run has them, and a trace is dealt
 * out round-robin. Connections and a request bound are split so the shares sum to the total; every worker has the
 * same object catalogue and a seed of its own derived from the run's.
 *
 * <p>Immutable and thread-safe.
 *
 * @param index this worker, 0 to {@code count - 1}
 * @param count the number of workers
 */
public record Segment(int index, int count) {
    /** The undivided load: one worker. */
    public static final Segment WHOLE = new Segment(0, 1);

    /** Checks {@code 0 <= index < count}. */
    public Segment {
        if (count < 1) {
            throw new IllegalArgumentException("a load needs at least one worker, got " + count);
        }
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("worker " + index + " is not one of 0.." + (count - 1));
        }
    }

    /** Parses {@code "i/N"}, e.g. {@code 0/3}. */
    public static Segment parse(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        try {
            if (slash > 0) {
                return new Segment(Integer.parseInt(t.substring(0, slash).trim()), Integer.parseInt(t.substring(slash + 1).trim()));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + text + "' is not a segment; expected i/N, e.g. 0/3 (worker 0 of 3)");
    }

    /** True for the undivided load. */
    public boolean whole() {
        return count == 1;
    }

    /**
     * This worker's share of {@code total} connections (the first {@code total % count} workers have one more);
     * throws IllegalArgumentException when there are fewer connections than workers.
     */
    public int connections(int total) {
        checkConnections(count, total);
        return total / count + (index < total % count ? 1 : 0);
    }

    /** Throws IllegalArgumentException, saying so, when {@code workers} workers cannot share {@code connections}. */
    public static void checkConnections(int workers, int connections) {
        if (workers > connections) {
            throw new IllegalArgumentException(workers + " load workers need at least " + workers
                    + " connections (each keeps one open), got " + connections);
        }
    }

    /** This worker's share of a bound of {@code total} requests (0: no bound stays no bound). */
    public long requests(long total) {
        return total <= 0 ? total : share(total);
    }

    /** The load's request number of this worker's request {@code local}. */
    public long ticket(long local) {
        return index + local * count;
    }

    /** This worker's seed: the run's seed itself for worker 0 (so one worker draws as an undivided run does). */
    public long seed(long runSeed) {
        return runSeed + 0x9E3779B97F4A7C15L * index;
    }

    /** This worker's part of {@code schedule} (null stays null: closed loop). */
    public Schedule schedule(Schedule schedule) {
        return schedule == null || whole() ? schedule : new Part(this, schedule);
    }

    /** This worker's part of {@code workload}: its request numbers, no warm-up pass (the load warms once). */
    public Workload workload(Workload workload) {
        return whole() ? workload : new PartWorkload(this, workload);
    }

    /** "1/3". */
    @Override
    public String toString() {
        return index + "/" + count;
    }

    private long share(long total) {
        // request numbers index, index + count, ... below total
        return total <= index ? 0 : (total - index + count - 1) / count;
    }

    private record Part(Segment segment, Schedule whole) implements Schedule {
        @Override
        public long offsetNanos(long ticket) {
            return whole.offsetNanos(segment.ticket(ticket));
        }

        @Override
        public String describe() {
            return whole.describe() + String.format(Locale.ROOT, ", segment %s", segment);
        }
    }

    private record PartWorkload(Segment segment, Workload whole) implements Workload {
        @Override
        public RequestGenerator newGenerator(long seed) {
            RequestGenerator inner = whole.newGenerator(seed);
            return (ticket, slot) -> inner.next(segment.ticket(ticket), slot);
        }

        @Override
        public long size() {
            long size = whole.size();
            return size == Long.MAX_VALUE ? size : segment.share(size);
        }

        @Override
        public Schedule schedule() {
            return segment.schedule(whole.schedule());
        }

        @Override
        public Workload warmUp() {
            return null;
        }

        @Override
        public Workload renewed() {
            return new PartWorkload(segment, whole.renewed());
        }

        @Override
        public String describe() {
            return whole.describe() + ", segment " + segment;
        }
    }
}
