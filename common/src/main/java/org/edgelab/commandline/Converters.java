package org.edgelab.commandline;

import java.time.Duration;
import org.edgelab.units.ByteSize;
import org.edgelab.units.Durations;
import picocli.CommandLine.ITypeConverter;

/**
 * picocli converters for the unit forms EdgeLab accepts everywhere (see {@link ByteSize} and
 * {@link Durations}), shared by every EdgeLab command. Stateless and thread-safe.
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
}
