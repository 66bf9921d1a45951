package org.edgelab.http;

import io.netty.handler.codec.DateFormatter;

import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Parses HTTP-dates in the three forms of RFC 9110 §5.6.7 (IMF-fixdate, RFC 850, asctime) and
 * formats IMF-fixdate, through Netty's {@link DateFormatter}.
 *
 * <p>Parsing is as lenient as Netty's parser (it tolerates missing leading zeros and trailing text)
 * and returns empty for a value it cannot read. A two-digit RFC 850 year is read with Netty's pivot:
 * 70-99 as 19xx, 00-69 as 20xx (RFC 9110 §5.6.7 would pivot 50 years ahead of today; the form is
 * obsolete and the two differ only for years 70-76). Stateless and thread-safe.
 */
public final class HttpDates {

    private HttpDates() {
    }

    /** Returns the instant the HTTP-date denotes, or empty when the value is null or not an HTTP-date. */
    public static Optional<Instant> parse(CharSequence value) {
        OptionalLong millis = parseMillis(value);
        return millis.isPresent() ? Optional.of(Instant.ofEpochMilli(millis.getAsLong())) : Optional.empty();
    }

    /** Returns the HTTP-date as milliseconds since the epoch, or empty when the value is null or invalid. */
    public static OptionalLong parseMillis(CharSequence value) {
        if (value == null) {
            return OptionalLong.empty();
        }
        Date date = DateFormatter.parseHttpDate(value);
        if (date == null) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(date.getTime());
    }

    /** Formats the instant as an IMF-fixdate, e.g. {@code Sun, 06 Nov 1994 08:49:37 GMT} (sub-second part dropped). */
    public static String format(Instant instant) {
        return format(instant.toEpochMilli());
    }

    /** Formats milliseconds since the epoch as an IMF-fixdate (sub-second part dropped). */
    public static String format(long epochMillis) {
        return DateFormatter.format(new Date(epochMillis));
    }
}
