package org.edgelab.experiments.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU seconds (user + system) of a process and its live descendants, read from Linux's
 * {@code /proc/<pid>/stat}; the figures of descendants already reaped by their parent are included
 * through the parent's {@code cutime}/{@code cstime}. Stateless and thread-safe.
 */
public final class ProcessCpu {

    /** Clock ticks per second of {@code /proc} times (USER_HZ, 100 on every Linux EdgeLab runs on). */
    static final double TICKS_PER_SECOND = 100.0;

    /** How results describe figures from this class. */
    public static final String METHOD = "/proc/<pid>/stat utime+stime+cutime+cstime of the process tree";

    private ProcessCpu() {
    }

    /** Whether this machine exposes {@code /proc/<pid>/stat}. */
    public static boolean available() {
        return Files.isReadable(Path.of("/proc/self/stat"));
    }

    /**
     * CPU seconds of {@code pid} and its live descendants; a process that has exited counts as 0.
     *
     * @throws IOException if {@code /proc} cannot be read at all
     */
    public static double treeSeconds(long pid) throws IOException {
        if (!available()) {
            throw new IOException("/proc/<pid>/stat is not readable here: CPU time of child processes cannot be measured");
        }
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        double seconds = 0;
        for (long p : pids) {
            seconds += seconds(p);
        }
        return seconds;
    }

    /** CPU seconds of one process including its reaped children, 0 if it is gone. */
    static double seconds(long pid) throws IOException {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (java.nio.file.NoSuchFileException e) {
            return 0;
        }
        return parseStat(stat);
    }

    /**
     * CPU seconds in a {@code /proc/<pid>/stat} line (utime + stime + cutime + cstime, fields 14-17 after the
     * parenthesised command), e.g. one a child process read from {@code /proc/self/stat} before it exited;
     * throws {@link IllegalArgumentException} on anything else.
     */
    public static double parseStat(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
        }
        String[] f = stat.substring(Math.min(stat.length(), close + 1)).trim().split(" +");
        if (f.length < 15) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line (too few fields): " + stat);
        }
        // f[0] is field 3 (state); utime is field 14 -> f[11]; stime f[12]; cutime f[13]; cstime f[14]
        try {
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
            return ticks / TICKS_PER_SECOND;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line (fields 14-17 are not numbers): " + stat, e);
        }
    }
}
