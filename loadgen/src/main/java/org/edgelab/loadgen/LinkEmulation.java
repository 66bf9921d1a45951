package org.edgelab.loadgen;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

import org.edgelab.loadgen.link.LinkEmulators;
import org.edgelab.units.DataRate;

/**
 * A link to emulate between the load generator and the server: one bandwidth cap per direction shared by every
 * connection of a load (as one outbound link is) and a one-way delay each way, emulated by the
 * {@link org.edgelab.loadgen.link.LinkEmulator} it names. {@link #NONE} emulates nothing.
 *
 * @param bitsPerSecond bandwidth cap per direction in bits/s, shared by all connections; 0 for none
 * @param oneWayLatency delay added to every request on its way out and every response byte on its way in
 * @param emulator      the name of the emulator ({@link LinkEmulators#USER_SPACE})
 */
public record LinkEmulation(long bitsPerSecond, Duration oneWayLatency, String emulator) {
    /** No emulation. */
    public static final LinkEmulation NONE = new LinkEmulation(0, Duration.ZERO);

    /** Validates: bandwidth >= 0, latency present and >= 0, an emulator named. */
    public LinkEmulation {
        if (bitsPerSecond < 0) {
            throw new IllegalArgumentException("link bandwidth must be >= 0 bits/s, got " + bitsPerSecond);
        }
        if (oneWayLatency == null || oneWayLatency.isNegative()) {
            throw new IllegalArgumentException("link latency must be >= 0, got " + oneWayLatency);
        }
        Objects.requireNonNull(emulator, "emulator");
    }

    /** A link emulated in user space. */
    public LinkEmulation(long bitsPerSecond, Duration oneWayLatency) {
        this(bitsPerSecond, oneWayLatency, LinkEmulators.USER_SPACE);
    }

    /** True when neither a cap nor a latency is set. */
    public boolean isNone() {
        return bitsPerSecond == 0 && oneWayLatency.isZero();
    }

    /** What is emulated and how, for summaries and result files. */
    public String describe() {
        if (isNone()) {
            return "none";
        }
        return String.format(Locale.ROOT, "%s each way shared by all connections, +%s one way (%s emulation)",
                bitsPerSecond == 0 ? "unlimited" : new DataRate(bitsPerSecond).formatBits(),
                org.edgelab.units.Durations.format(oneWayLatency), emulator);
    }
}
