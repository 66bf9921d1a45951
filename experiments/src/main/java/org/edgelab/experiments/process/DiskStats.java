package org.edgelab.experiments.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Bytes read and written by the block device a directory lives on, from Linux's {@code /proc/diskstats} (sectors of
 * 512 bytes): the whole device, every process on the machine. Stateless and thread-safe.
 */
public final class DiskStats {

    private static final Path DISKSTATS = Path.of("/proc/diskstats");

    private DiskStats() {
    }

    /**
     * Bytes read and written so far. Immutable.
     *
     * @param device       the device's name in {@code /proc/diskstats}, e.g. {@code vda}
     * @param readBytes    bytes read
     * @param writtenBytes bytes written
     */
    public record Sample(String device, long readBytes, long writtenBytes) {
    }

    /**
     * The name in {@code /proc/diskstats} of the device {@code dir} (or its nearest existing parent) is on, e.g. {@code vda}.
     *
     * @throws IOException saying why not (a file system on no block device such as tmpfs or overlay, no diskstats)
     */
    public static String deviceOf(Path dir) throws IOException {
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new IOException("no part of " + dir + " exists");
        }
        FileStore store = Files.getFileStore(existing);
        String name = store.name();
        String device = name.startsWith("/dev/") ? name.substring("/dev/".length()) : name;
        if (device.startsWith("mapper/")) {
            throw new IOException(existing + " is on " + name + ", a device-mapper volume: its diskstats name (dm-N) is not looked up");
        }
        if (read(device).isEmpty()) {
            throw new IOException(existing + " is on " + name + " (" + store.type() + "), not a block device listed in /proc/diskstats");
        }
        return device;
    }

    /** The counters of {@code device} now, empty when {@code /proc/diskstats} has no such line. */
    public static Optional<Sample> read(String device) throws IOException {
        if (!Files.isReadable(DISKSTATS)) {
            throw new IOException("/proc/diskstats is not readable here");
        }
        for (String line : Files.readAllLines(DISKSTATS, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 10 && f[2].equals(device)) {
                return Optional.of(new Sample(device, Long.parseLong(f[5]) * 512, Long.parseLong(f[9]) * 512));
            }
        }
        return Optional.empty();
    }
}
