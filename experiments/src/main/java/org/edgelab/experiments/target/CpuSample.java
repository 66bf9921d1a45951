package org.edgelab.experiments.target;

/**
 * CPU seconds (user + system) used so far by the processes under test. Immutable.
 *
 * @param serverSeconds CPU seconds of the server (and origin, where {@code method} says so); NaN when the
 *                      target cannot separate them from the load generator, and the runner derives them
 * @param method        how they were measured, written into results (e.g. {@code /proc/<pid>/stat of
 *                      the server process tree})
 */
public record CpuSample(double serverSeconds, String method) {

    /** Whether {@link #serverSeconds()} was measured. */
    public boolean measured() {
        return !Double.isNaN(serverSeconds);
    }
}
