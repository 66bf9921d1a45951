package org.edgelab.loadgen.video;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The stream-count search of a {@link SearchPlan}, over any health oracle: which counts to measure, in which order,
 * and what they bracket. It assumes health falls with the count (more streams never heal a node) and keeps, as it
 * goes, the highest healthy count below the lowest unhealthy one it measured (unhealthy: every measurement of it, see
 * {@link SearchPlan#recheck}): that pair is the result, so every figure it reports was measured.
 *
 * <p>Stateless; {@link #run} calls the oracle from the calling thread and may block as long as the oracle does.
 */
public final class StreamSearch {
    private StreamSearch() {
    }

    /** Measures one stream count. */
    @FunctionalInterface
    public interface Oracle {
        /** Plays {@code streams} streams and says whether they were healthy. */
        boolean healthy(int streams) throws InterruptedException;
    }

    /**
     * What the search found.
     *
     * @param sustained      the highest healthy count below {@code firstUnhealthy} (0 when no count was healthy)
     * @param firstUnhealthy the lowest unhealthy count measured; empty when every count was healthy
     * @param maxReached     the plan's maximum was measured and healthy: the limit lies above what the plan allows
     * @param probes         every count measured, in order
     */
    public record Outcome(int sustained, OptionalInt firstUnhealthy, boolean maxReached, List<Integer> probes) {
        /** Copies the probes. */
        public Outcome {
            probes = List.copyOf(probes);
        }
    }

    /** Runs {@code plan} against {@code oracle}. */
    public static Outcome run(SearchPlan plan, Oracle oracle) throws InterruptedException {
        List<Integer> probes = new ArrayList<>();
        int healthy = 0;
        int unhealthy = -1;
        int n = plan.initialStreams();
        // grow until a step is unhealthy or the maximum was healthy
        while (true) {
            if (!healthy(plan, oracle, n, probes)) {
                unhealthy = n;
                break;
            }
            healthy = n;
            if (n >= plan.maxStreams()) {
                return new Outcome(healthy, OptionalInt.empty(), true, probes);
            }
            n = plan.growth() == SearchPlan.Growth.LINEAR
                    ? (int) Math.min(plan.maxStreams(), (long) n + plan.step())
                    : (int) Math.min(plan.maxStreams(), 2L * n);
        }
        if (plan.growth() == SearchPlan.Growth.BRACKET) {
            // bisect (healthy, unhealthy): each probe moves one end, the bracket holds
            while (unhealthy - healthy > plan.resolution()) {
                int mid = healthy + (unhealthy - healthy) / 2;
                if (healthy(plan, oracle, mid, probes)) {
                    healthy = mid;
                } else {
                    unhealthy = mid;
                }
            }
        }
        return new Outcome(healthy, OptionalInt.of(unhealthy), false, probes);
    }

    /** Measures {@code streams} until one measurement is healthy, at most {@code 1 + recheck} times; records each. */
    private static boolean healthy(SearchPlan plan, Oracle oracle, int streams, List<Integer> probes)
            throws InterruptedException {
        for (int measurement = 0; measurement <= plan.recheck(); measurement++) {
            probes.add(streams);
            if (oracle.healthy(streams)) {
                return true;
            }
        }
        return false;
    }
}
