package org.edgelab.experiments.descriptor.yaml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The text of one descriptor file and where it came from: a file (includes resolve relative to its
 * directory) or a built-in class path resource under {@code experiments/}. Immutable and thread-safe.
 *
 * @param name      shown in error messages: the file path, or {@code classpath:experiments/x.yaml}
 * @param text      the YAML text
 * @param directory the file's directory, or null for a built-in resource
 */
public record DescriptorSource(String name, String text, Path directory) {

    /** The class path folder of built-in descriptors. */
    public static final String RESOURCE_ROOT = "experiments/";

    /** Reads a descriptor file; a missing or unreadable file fails naming the path. */
    public static DescriptorSource file(Path file) {
        try {
            Path absolute = file.toAbsolutePath().normalize();
            return new DescriptorSource(file.toString(), Files.readString(absolute, StandardCharsets.UTF_8), absolute.getParent());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read descriptor " + file + ": " + e.getMessage(), e);
        }
    }

    /** Returns the built-in descriptor {@code experiments/<name>.yaml} (or {@code <name>} as given), if present. */
    public static Optional<DescriptorSource> builtin(String name) {
        for (String candidate : new String[] {name.endsWith(".yaml") || name.endsWith(".yml") ? name : name + ".yaml", name}) {
            String resource = RESOURCE_ROOT + candidate;
            try (InputStream in = DescriptorSource.class.getClassLoader().getResourceAsStream(resource)) {
                if (in != null) {
                    return Optional.of(new DescriptorSource("classpath:" + resource,
                            new String(in.readAllBytes(), StandardCharsets.UTF_8), null));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read built-in descriptor " + resource, e);
            }
        }
        return Optional.empty();
    }
}
