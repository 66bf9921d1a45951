package org.edgelab.measure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * I/O and peak resident memory of a set of processes from Linux's {@code /proc/<pid>/io} ({@code read_bytes} and
 * {@code write_bytes}: bytes the process made the block layer read or write, i.e. device I/O, page-cache hits
 * excluded; {@code syscr}/{@code syscw}: read and write system calls) and {@code /proc/<pid>/status}
 * ({@code VmHWM}, the process's peak RSS). Each process's figures include its threads that ended and its children
 * it reaped. Stateless and thread-safe.
 */
public final class ProcessIo {

    /** How results describe the I/O figures. */
    public static final String METHOD = "/proc/<pid>/io read_bytes, write_bytes, syscr, syscw summed over the server's processes";

    /** How results describe the peak RSS. */
    public static final String RSS_METHOD = "/proc/<pid>/status VmHWM summed over the server's processes (each process's own peak)";

    private ProcessIo() {
    }

    /**
     * Counters of a set of processes, summed. Immutable.
     *
     * @param readBytes     bytes read from devices
     * @param writeBytes    bytes written to devices (counted when a page is dirtied, minus cancelled writes)
     * @param readSyscalls  read system calls
     * @param writeSyscalls write system calls
     * @param rssPeakBytes  the sum of the processes' peak RSS
     */
    public record Sample(long readBytes, long writeBytes, long readSyscalls, long writeSyscalls, long rssPeakBytes) {

        /** The I/O since {@code earlier} (the peak stays this sample's). */
        public Sample minus(Sample earlier) {
            return new Sample(readBytes - earlier.readBytes, writeBytes - earlier.writeBytes, readSyscalls - earlier.readSyscalls,
                    writeSyscalls - earlier.writeSyscalls, rssPeakBytes);
        }
    }

    /** Whether {@code /proc/<pid>/io} can be read here (Linux with task I/O accounting). */
    public static boolean available() {
        return Files.isReadable(Path.of("/proc/self/io"));
    }

    /** The pids of {@code root} and its live descendants. */
    public static Set<Long> tree(long root) {
        Set<Long> pids = new LinkedHashSet<>();
        pids.add(root);
        ProcessHandle.of(root).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        return pids;
    }

    /**
     * The counters of {@code pids} summed; a process gone meanwhile counts as 0.
     *
     * @throws IOException if a file of a live process cannot be read (another user's process without root)
     */
    public static Sample read(Collection<Long> pids) throws IOException {
        long rb = 0;
        long wb = 0;
        long sr = 0;
        long sw = 0;
        long hwm = 0;
        for (long pid : pids) {
            String io;
            String status;
            try {
                io = Files.readString(Path.of("/proc", Long.toString(pid), "io"), StandardCharsets.UTF_8);
                status = Files.readString(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                continue;
            }
            long cancelled = field(io, "cancelled_write_bytes:");
            rb += field(io, "read_bytes:");
            wb += Math.max(0, field(io, "write_bytes:") - cancelled);
            sr += field(io, "syscr:");
            sw += field(io, "syscw:");
            hwm += field(status, "VmHWM:") * 1024; // kB
        }
        return new Sample(rb, wb, sr, sw, hwm);
    }

    /** The number after {@code key} at the start of a line of {@code text}, 0 when absent. */
    static long field(String text, String key) {
        for (String line : text.split("\n")) {
            if (line.startsWith(key)) {
                String[] f = line.substring(key.length()).trim().split("\\s+");
                return Long.parseLong(f[0]);
            }
        }
        return 0;
    }
}
