package org.edgelab.experiments.descriptor.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.edgelab.experiments.descriptor.Descriptor;

/**
 * Descriptor files a test writes into its own directory and loads (the full variant), or expects
 * to fail at load with an error that names the file, then the line and column where known. One
 * per test directory; not thread-safe.
 */
public final class DescriptorFiles {

    private final Path dir;

    /** Files go into {@code dir} (a test's {@code @TempDir}). */
    public DescriptorFiles(Path dir) {
        this.dir = dir;
    }

    /** Writes {@code text} as {@code name} in the directory; returns the file. */
    public Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    /** Writes {@code text} as {@code name} and loads it. */
    public Descriptor load(String name, String text) throws IOException {
        return DescriptorLoader.load(write(name, text).toString(), false);
    }

    /**
     * Writes {@code text} as {@code name}, loads it and returns the error, after checking that it
     * names the file and its message starts with file:line:column (as far as they are known);
     * fails when the descriptor loads.
     */
    public DescriptorException failure(String name, String text) throws IOException {
        Path file = write(name, text);
        try {
            DescriptorLoader.load(file.toString(), false);
        } catch (DescriptorException e) {
            assertThat(e.file()).isEqualTo(file.toString());
            String where = e.line() == 0 ? "" : ":" + e.line() + (e.column() == 0 ? "" : ":" + e.column());
            assertThat(e.getMessage()).startsWith(file + where + ": ");
            return e;
        }
        throw new AssertionError("no error for:\n" + text);
    }

    /** {@link #failure(String, String)} of a file named {@code bad.yaml}. */
    public DescriptorException failure(String text) throws IOException {
        return failure("bad.yaml", text);
    }
}
