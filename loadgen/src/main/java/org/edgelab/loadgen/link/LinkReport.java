package org.edgelab.loadgen.link;

import java.time.Duration;
import java.util.Locale;

import org.edgelab.units.DataRate;

/**
 * What a link was and what it carried during one measured phase: the emulation used, the rate and delay asked
 * for, and the rate measured in each direction (bytes carried over the phase's length).
 *
 * @param emulation     {@code user-space}, or {@code none} when no link was emulated
 * @param bitsPerSecond the cap per direction asked for, 0 for none
 * @param oneWayDelay   the delay added each way
 * @param bytesDown     bytes carried towards the client
 * @param bytesUp       bytes carried towards the server
 * @param seconds       the phase's length
 */
public record LinkReport(String emulation, long bitsPerSecond, Duration oneWayDelay, long bytesDown, long bytesUp,
                         double seconds) {
    /** No link. */
    public static LinkReport none(double seconds) {
        return new LinkReport("none", 0, Duration.ZERO, 0, 0, seconds);
    }

    /** True when a link was emulated. */
    public boolean emulated() {
        return !emulation.equals("none");
    }

    /** Measured rate towards the client, bits per second. */
    public double measuredDownBitsPerSecond() {
        return seconds > 0 ? bytesDown * 8 / seconds : 0;
    }

    /** Measured rate towards the server, bits per second. */
    public double measuredUpBitsPerSecond() {
        return seconds > 0 ? bytesUp * 8 / seconds : 0;
    }

    /** One line: "user-space link, 1 Gbit/s each way shared by every connection, +40 ms one way; measured 0.98 Gbit/s down, 1.2 Mbit/s up". */
    public String describe() {
        if (!emulated()) {
            return "none";
        }
        return String.format(Locale.ROOT, "%s link, %s each way shared by every connection, +%s ms one way; measured %s down, %s up",
                emulation, bitsPerSecond == 0 ? "unlimited" : new DataRate(bitsPerSecond).formatBits(),
                trim(oneWayDelay.toNanos() / 1e6), new DataRate(Math.round(measuredDownBitsPerSecond())).formatBits(),
                new DataRate(Math.round(measuredUpBitsPerSecond())).formatBits());
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
