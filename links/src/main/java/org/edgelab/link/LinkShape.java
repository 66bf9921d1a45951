package org.edgelab.link;

import java.time.Duration;
import java.util.Locale;

import org.edgelab.units.ByteSize;
import org.edgelab.units.Durations;

/**
 * What a link is asked to be: a bandwidth cap per direction shared by every connection that crosses it, a
 * one-way delay each way, and the bytes its bottleneck queue holds before it drops (a real link's buffer).
 *
 * @param bitsPerSecond the cap of each direction in bits/s, 0 for none
 * @param oneWayDelay   the delay added each way (the round-trip time is twice it)
 * @param bufferBytes   the queue limit of each direction's shaper in bytes; 0 picks {@link #DEFAULT_BUFFER} of the rate
 */
public record LinkShape(long bitsPerSecond, Duration oneWayDelay, long bufferBytes) {
    /** The default queue: this long at the link's rate (a switch port's buffer of a few tens of milliseconds). */
    public static final Duration DEFAULT_BUFFER = Duration.ofMillis(20);
    /** The smallest queue a shaper gets: four 64 KiB packets. */
    public static final long MIN_BUFFER_BYTES = 256 * 1024;

    /** Validates: rate and buffer >= 0, a delay >= 0. */
    public LinkShape {
        if (bitsPerSecond < 0) {
            throw new IllegalArgumentException("link rate must be >= 0 bits/s, got " + bitsPerSecond);
        }
        if (oneWayDelay == null || oneWayDelay.isNegative()) {
            throw new IllegalArgumentException("link delay must be >= 0, got " + oneWayDelay);
        }
        if (bufferBytes < 0) {
            throw new IllegalArgumentException("link buffer must be >= 0 bytes, got " + bufferBytes);
        }
    }

    /** A link of {@code bitsPerSecond} each way and {@code oneWayDelay}, with the default buffer. */
    public LinkShape(long bitsPerSecond, Duration oneWayDelay) {
        this(bitsPerSecond, oneWayDelay, 0);
    }

    /** The round-trip time the link adds: twice the one-way delay. */
    public Duration roundTrip() {
        return oneWayDelay.multipliedBy(2);
    }

    /** The queue limit in bytes: the one asked for, else {@link #DEFAULT_BUFFER} at the rate, at least {@link #MIN_BUFFER_BYTES}. */
    public long effectiveBufferBytes() {
        if (bufferBytes > 0) {
            return bufferBytes;
        }
        long atRate = bitsPerSecond / 8 * DEFAULT_BUFFER.toNanos() / 1_000_000_000L;
        return Math.max(MIN_BUFFER_BYTES, atRate);
    }

    /** "1 Gbit/s each way, +40 ms one way, 2.5 MB buffer". */
    public String describe() {
        return String.format(Locale.ROOT, "%s each way, +%s one way, %s buffer",
                bitsPerSecond == 0 ? "unlimited" : formatBits(bitsPerSecond), Durations.format(oneWayDelay),
                ByteSize.format(effectiveBufferBytes()));
    }

    /** {@code bitsPerSecond} as "10 Gbit/s", "1.5 Mbit/s". */
    public static String formatBits(double bitsPerSecond) {
        String[] units = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
        double v = bitsPerSecond;
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        String number = v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.3g", v);
        return number + " " + units[u];
    }
}
