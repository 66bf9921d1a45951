package org.edgelab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The JVM flags every forked benchmark JVM runs with, read from {@code benchmark-jvm.properties},
 * which Maven fills from the root pom's {@code edgelab.lmdb.opens} property (the one place they
 * are defined). Stateless and thread-safe.
 */
final class ForkFlags {

    private ForkFlags() {
    }

    /** Returns the flags, split into arguments. */
    static List<String> jvmArgs() {
        Properties p = new Properties();
        try (InputStream in = ForkFlags.class.getResourceAsStream("/benchmark-jvm.properties")) {
            if (in == null) {
                throw new IllegalStateException("benchmark-jvm.properties is missing from the benchmark jar; rebuild it with Maven");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String flags = p.getProperty("fork.jvmArgs", "").trim();
        if (flags.contains("${")) {
            throw new IllegalStateException("benchmark-jvm.properties was not filtered by Maven: " + flags);
        }
        return flags.isEmpty() ? List.of() : Arrays.asList(flags.split("\\s+"));
    }
}
