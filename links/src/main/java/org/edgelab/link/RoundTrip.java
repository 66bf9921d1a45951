package org.edgelab.link;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Round-trip times measured by a probe across a link (each a TCP connect: SYN out, SYN-ACK back). Immutable.
 *
 * @param method  how each sample was taken ("tcp-handshake-srtt")
 * @param samples the samples, in the order taken
 */
public record RoundTrip(String method, List<Duration> samples) {
    /** Copies the samples; at least one. */
    public RoundTrip {
        samples = List.copyOf(samples);
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("a round trip needs at least one sample");
        }
    }

    /** The smallest sample: the link's own delay, least disturbed by the machine. */
    public Duration min() {
        return samples.stream().min(Duration::compareTo).orElseThrow();
    }

    /** The median sample. */
    public Duration median() {
        List<Duration> sorted = samples.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** Milliseconds of {@code d}, for results. */
    public static double millis(Duration d) {
        return d.toNanos() / 1e6;
    }

    /** "median 80.4 ms (min 80.1 ms, 5 tcp-handshake-srtt samples)". */
    public String describe() {
        return String.format(Locale.ROOT, "median %.1f ms (min %.1f ms, %d %s samples)", millis(median()), millis(min()),
                samples.size(), method);
    }
}
