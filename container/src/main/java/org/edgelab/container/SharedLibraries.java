package org.edgelab.container;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The system shared libraries ELF files load, as {@code ldd} lists them (the dynamic loader itself
 * included), so that an image {@code FROM scratch} can hold exactly what a Java runtime needs.
 * Libraries {@code ldd} cannot find are left out: they are the runtime's own ({@code libjvm.so}, found
 * through its run path when the JVM loads them). Stateless and thread-safe.
 */
public final class SharedLibraries {

    /** {@code libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)} or {@code /lib64/ld-linux-x86-64.so.2 (0x...)}. */
    private static final Pattern LINE = Pattern.compile("^\\s*(?:\\S+\\s+=>\\s+)?(/\\S+)\\s+\\(0x[0-9a-f]+\\)\\s*$");

    private SharedLibraries() {
    }

    /** The absolute paths of the libraries {@code files} load, sorted, without duplicates. */
    public static Set<Path> of(List<Path> files) throws IOException {
        Set<Path> libraries = new TreeSet<>();
        List<Path> batch = new ArrayList<>();
        for (Path file : files) {
            batch.add(file);
            if (batch.size() == 64) {
                libraries.addAll(parse(ldd(batch)));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            libraries.addAll(parse(ldd(batch)));
        }
        return libraries;
    }

    /** The library paths in {@code ldd} output (one or several files; "not found" and the vDSO skipped). */
    static Set<Path> parse(String lddOutput) {
        Set<Path> libraries = new TreeSet<>();
        for (String line : lddOutput.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (m.matches()) {
                libraries.add(Path.of(m.group(1)));
            }
        }
        return libraries;
    }

    private static String ldd(List<Path> files) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("ldd");
        files.forEach(f -> command.add(f.toString()));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("cannot run ldd to find the libraries of the Java runtime (apt-get install libc-bin): "
                    + e.getMessage(), e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("ldd did not finish within 60 s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running ldd", e);
        }
        // ldd exits 1 when one of several files is not dynamic (e.g. a static helper): the rest is still listed
        return output;
    }
}
