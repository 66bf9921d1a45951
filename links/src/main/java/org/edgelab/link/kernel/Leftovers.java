package org.edgelab.link.kernel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of the namespaces EdgeLab makes ({@value #PREFIX}{@code <pid>-<n>-<node>}) and the sweep that deletes those
 * left behind by a process that is gone (a JVM killed before its link closed, whose delay line died with it). Run
 * once per JVM before its first kernel link; a namespace of a live process is never touched. Thread-safe.
 */
final class Leftovers {
    static final String PREFIX = "edgelab-";
    private static final Pattern OWNED = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-.*");
    private static boolean swept;

    private Leftovers() {
    }

    /** Sweeps once per JVM; the names it deleted. */
    static synchronized List<String> sweepOnce() {
        if (swept) {
            return List.of();
        }
        swept = true;
        return sweep();
    }

    /** Deletes every EdgeLab namespace whose owning process is gone, ending the processes still inside it; their names. */
    static List<String> sweep() {
        List<String> deleted = new ArrayList<>();
        for (String name : NetworkNamespace.list()) {
            Matcher m = OWNED.matcher(name);
            if (!m.matches() || Files.exists(Path.of("/proc", m.group(1)))) {
                continue;
            }
            Commands.Result pids = Commands.attempt(Commands.ip("netns", "pids", name));
            if (pids.exit() == 0) {
                for (String pid : pids.output().trim().split("\\s+")) {
                    if (!pid.isEmpty()) {
                        ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
            }
            if (NetworkNamespace.delete(name)) {
                deleted.add(name);
            }
        }
        return deleted;
    }
}
