package org.edgelab.origin.fault;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.edgelab.units.ByteSize;
import org.edgelab.units.DataRate;
import org.edgelab.units.Durations;

/**
 * What to do differently for one response: answer a status, reset the connection after some body
 * bytes, delay the first byte, flip one byte, override Cache-Control, cap the rate, or use chunked
 * transfer coding. Every field has an "unset" value ({@link #NONE}); immutable and thread-safe.
 *
 * @param status             status to answer instead of the object (300..599), or 0 for none
 * @param resetAfter         body bytes to send before resetting the connection, or -1 for none
 * @param firstByteDelay     delay before the response's first byte, or null for none
 * @param corruptAt          object offset of the byte to flip, or -1 for none
 * @param cacheControl       Cache-Control value to send instead of the configured one, or null
 * @param rateBytesPerSecond per-response bandwidth cap, or 0 for none
 * @param chunked            send with Transfer-Encoding: chunked instead of Content-Length
 */
public record FaultPlan(int status, long resetAfter, Duration firstByteDelay, long corruptAt,
                        String cacheControl, long rateBytesPerSecond, boolean chunked) {

    /** The plan that changes nothing. */
    public static final FaultPlan NONE = new FaultPlan(0, -1, null, -1, null, 0, false);

    /** The query parameter names this plan understands, as written in URLs. */
    public static final List<String> PARAMETERS =
            List.of("status", "reset-after", "first-byte-delay", "corrupt-at", "cache-control", "rate", "chunked");

    /** Validates every field. */
    public FaultPlan {
        if (status != 0 && (status < 300 || status > 599)) {
            throw new IllegalArgumentException("status=" + status + ": an injected status must be between 300 and 599");
        }
        if (resetAfter < -1) {
            throw new IllegalArgumentException("reset-after=" + resetAfter + " must be a byte count >= 0");
        }
        if (firstByteDelay != null && firstByteDelay.isNegative()) {
            throw new IllegalArgumentException("first-byte-delay must not be negative");
        }
        if (corruptAt < -1) {
            throw new IllegalArgumentException("corrupt-at=" + corruptAt + " must be an offset >= 0");
        }
        if (cacheControl != null && (cacheControl.indexOf('\r') >= 0 || cacheControl.indexOf('\n') >= 0)) {
            throw new IllegalArgumentException("cache-control must not contain line breaks");
        }
        if (rateBytesPerSecond < 0) {
            throw new IllegalArgumentException("rate must not be negative");
        }
    }

    /**
     * Reads a plan from decoded query parameters (as {@code QueryStringDecoder.parameters()} gives
     * them); other parameters are ignored. Throws IllegalArgumentException naming a bad value.
     */
    public static FaultPlan fromParameters(Map<String, List<String>> parameters) {
        int status = 0;
        long resetAfter = -1;
        Duration firstByteDelay = null;
        long corruptAt = -1;
        String cacheControl = null;
        long rate = 0;
        boolean chunked = false;
        boolean any = false;
        for (Map.Entry<String, List<String>> e : parameters.entrySet()) {
            List<String> values = e.getValue();
            if (values.isEmpty()) {
                continue;
            }
            String value = values.get(values.size() - 1);
            switch (e.getKey()) {
                case "status":
                    status = (int) parseCount("status", value);
                    break;
                case "reset-after":
                    resetAfter = parseByteCount("reset-after", value);
                    break;
                case "first-byte-delay":
                    firstByteDelay = parseDuration("first-byte-delay", value);
                    break;
                case "corrupt-at":
                    corruptAt = parseByteCount("corrupt-at", value);
                    break;
                case "cache-control":
                    cacheControl = value;
                    break;
                case "rate":
                    rate = parseRate("rate", value);
                    if (rate == 0) {
                        throw new IllegalArgumentException("rate=" + value + " must be at least 1 byte per second");
                    }
                    break;
                case "chunked":
                    chunked = parseBoolean("chunked", value);
                    break;
                default:
                    continue;
            }
            any = true;
        }
        return any ? new FaultPlan(status, resetAfter, firstByteDelay, corruptAt, cacheControl, rate, chunked) : NONE;
    }

    /** This plan with every field that {@code other} sets replaced by {@code other}'s value. */
    public FaultPlan overriddenBy(FaultPlan other) {
        if (other == NONE || other.equals(NONE)) {
            return this;
        }
        if (this.equals(NONE)) {
            return other;
        }
        return new FaultPlan(
                other.status != 0 ? other.status : status,
                other.resetAfter >= 0 ? other.resetAfter : resetAfter,
                other.firstByteDelay != null ? other.firstByteDelay : firstByteDelay,
                other.corruptAt >= 0 ? other.corruptAt : corruptAt,
                other.cacheControl != null ? other.cacheControl : cacheControl,
                other.rateBytesPerSecond > 0 ? other.rateBytesPerSecond : rateBytesPerSecond,
                other.chunked || chunked);
    }

    /** True if this plan changes nothing. */
    public boolean isNone() {
        return equals(NONE);
    }

    private static long parseCount(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + value + " is not a whole number", e);
        }
    }

    private static long parseByteCount(String name, String value) {
        try {
            return ByteSize.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + "=" + value + ": " + e.getMessage(), e);
        }
    }

    private static long parseRate(String name, String value) {
        try {
            return DataRate.parse(value).wholeBytesPerSecond();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + "=" + value + ": " + e.getMessage(), e);
        }
    }

    private static Duration parseDuration(String name, String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + "=" + value + ": " + e.getMessage(), e);
        }
    }

    private static boolean parseBoolean(String name, String value) {
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "":
            case "true":
            case "1":
            case "yes":
                return true;
            case "false":
            case "0":
            case "no":
                return false;
            default:
                throw new IllegalArgumentException(name + "=" + value + " must be true or false");
        }
    }
}
