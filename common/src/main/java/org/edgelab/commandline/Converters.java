package org.edgelab.commandline;

import java.time.Duration;
import org.edgelab.units.ByteSize;
import org.edgelab.units.DataRate;
import org.edgelab.units.Durations;
import picocli.CommandLine.ITypeConverter;

/**
 * picocli converters for the unit forms EdgeLab accepts everywhere (see {@link ByteSize}, {@link DataRate}
 * and {@link Durations}), shared by every EdgeLab command. Stateless and thread-safe.
 */
public final class Converters {

    private Converters() {
    }

    /** Converts "100KB", "1MiB", "512m" to bytes. */
    public static final class Bytes implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return ByteSize.parse(value);
        }
    }

    /** Converts "200ms", "5s", "PT1M" to a Duration. */
    public static final class Time implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return Durations.parse(value);
        }
    }

    /** Converts "1Gbit/s", "1gbit", "70MB/s" to a {@link DataRate}. */
    public static final class Rate implements ITypeConverter<DataRate> {
        @Override
        public DataRate convert(String value) {
            return DataRate.parse(value);
        }
    }

    /** Converts as wrk does for its time options: a bare number is seconds ("30"), else as {@link Time} ("30s", "2m"). */
    public static final class Seconds implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String t = value.trim();
            if (t.matches("[0-9]+(\\.[0-9]+)?")) {
                return Durations.parse(t + "s");
            }
            return Durations.parse(value);
        }
    }
}
