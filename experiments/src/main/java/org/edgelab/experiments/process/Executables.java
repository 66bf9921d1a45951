package org.edgelab.experiments.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the executables the runner starts (peers' daemons, load clients such as wrk, taskset) on
 * {@code PATH} and in the system directories Debian installs them to ({@code /usr/sbin}, which a non-root
 * {@code PATH} often lacks). Stateless and thread-safe.
 */
public final class Executables {

    private static final List<String> SYSTEM_DIRS = List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin");

    private Executables() {
    }

    /** The executable {@code name}, if installed. */
    public static Optional<Path> find(String name) {
        Set<String> dirs = new LinkedHashSet<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isBlank()) {
                    dirs.add(dir);
                }
            }
        }
        dirs.addAll(SYSTEM_DIRS);
        for (String dir : dirs) {
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Empty when every one of {@code names} is installed; otherwise a message naming the missing ones and
     * the Debian package that provides them, e.g. {@code varnishd not found: apt-get install varnish}.
     */
    public static Optional<String> missing(String debianPackage, String... names) {
        List<String> absent = new ArrayList<>();
        for (String name : names) {
            if (find(name).isEmpty()) {
                absent.add(name);
            }
        }
        if (absent.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(String.join(", ", absent) + " not found: apt-get install " + debianPackage);
    }

    /** The executable {@code name}, or an {@link java.io.IOException} saying which package provides it. */
    public static Path require(String name, String debianPackage) throws java.io.IOException {
        return find(name).orElseThrow(() -> new java.io.IOException(name + " not found: apt-get install " + debianPackage));
    }
}
