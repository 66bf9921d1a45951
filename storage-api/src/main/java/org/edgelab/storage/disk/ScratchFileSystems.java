package org.edgelab.storage.disk;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Makes {@link ScratchFileSystem}s: a tmpfs of a given size, or ext4 on a loop device over a sparse file
 * (what a storage engine meets on a real disk: block allocation, a journal, a forced shutdown). Every one
 * is named {@code edgelab-fs-<pid>-<n>} (mount point {@code <tmp>/edgelab-fs-<pid>-<n>}, image beside it
 * with {@code .img}); the first one a process makes first sweeps what processes that are gone left behind
 * (mounts, loop devices, images). Root only. Thread-safe; every method blocks on the tools it runs.
 */
public final class ScratchFileSystems {

    /** The prefix every scratch mount point, image and loop backing file is named with. */
    public static final String PREFIX = "edgelab-fs-";

    private static final Pattern NAME = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-(\\d+)(\\.img)?");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Object SWEEP = new Object();
    private static boolean swept;

    private ScratchFileSystems() {
    }

    /** Why this process cannot make scratch file systems (not root, not Linux), or empty when it can. */
    public static Optional<String> unavailableReason() {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return Optional.of("no /proc/self/status (not Linux?)");
        }
        try {
            for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
                if (line.startsWith("Uid:")) {
                    String[] ids = line.substring(4).trim().split("\\s+");
                    return ids.length > 1 && ids[1].equals("0") ? Optional.empty()
                            : Optional.of("mounting a file system needs root: the effective uid is " + ids[1] + ", not 0");
                }
            }
        } catch (IOException e) {
            return Optional.of("cannot read /proc/self/status: " + e.getMessage());
        }
        return Optional.of("/proc/self/status has no Uid line");
    }

    /** Why loop devices with ext4 cannot be made here (besides root: /dev/loop-control, losetup, mkfs.ext4), or empty. */
    public static Optional<String> loopUnavailableReason() {
        Optional<String> root = unavailableReason();
        if (root.isPresent()) {
            return root;
        }
        if (!Files.exists(Path.of("/dev/loop-control"))) {
            return Optional.of("no /dev/loop-control: this kernel has no loop devices");
        }
        for (String tool : List.of("losetup", "mkfs.ext4", "e2fsck")) {
            if (!onPath(tool)) {
                return Optional.of(tool + " is not installed (apt-get install util-linux e2fsprogs)");
            }
        }
        return Optional.empty();
    }

    private static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** Mounts a tmpfs of {@code sizeBytes}; throws naming what failed (root, the mount). */
    public static ScratchFileSystem tmpfs(long sizeBytes) throws IOException, InterruptedException {
        require(unavailableReason());
        Path dir = newMountPoint();
        try {
            Commands.require(List.of("mount", "-t", "tmpfs", "-o", "size=" + sizeBytes + ",mode=0700", "tmpfs", dir.toString()));
        } catch (IOException e) {
            Files.deleteIfExists(dir);
            throw e;
        }
        return new ScratchFileSystem(ScratchFileSystem.Kind.TMPFS, dir, null, null, sizeBytes);
    }

    /**
     * Makes ext4 (no reserved blocks, so all of {@code sizeBytes} but its metadata is usable) on a loop device
     * over a sparse file of {@code sizeBytes} and mounts it; throws naming what failed, having undone the rest.
     */
    public static ScratchFileSystem loopExt4(long sizeBytes) throws IOException, InterruptedException {
        return loopExt4(sizeBytes, false);
    }

    /**
     * {@link #loopExt4(long)}, the loop device doing direct I/O on its image when {@code directIo}: the image's pages
     * are then not cached a second time under the file system's, so the device's reads and writes are the file
     * system's, as on a disk of its own.
     */
    public static ScratchFileSystem loopExt4(long sizeBytes, boolean directIo) throws IOException, InterruptedException {
        require(loopUnavailableReason());
        Path dir = newMountPoint();
        Path image = dir.resolveSibling(dir.getFileName() + ".img");
        String device = null;
        try {
            try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
                f.setLength(sizeBytes);
            }
            device = Commands.require(directIo
                    ? List.of("losetup", "--find", "--show", "--direct-io=on", image.toString())
                    : List.of("losetup", "--find", "--show", image.toString()));
            Commands.require(List.of("mkfs.ext4", "-q", "-F", "-m", "0", "-L", "edgelab", device));
            Commands.require(List.of("mount", "-t", "ext4", device, dir.toString()));
            return new ScratchFileSystem(ScratchFileSystem.Kind.LOOP_EXT4, dir, image, device, sizeBytes);
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (device != null) {
                Commands.run(List.of("losetup", "-d", device));
            }
            Files.deleteIfExists(image);
            Files.deleteIfExists(dir);
            throw e;
        }
    }

    /** Loop devices with ext4 where they can be made, else tmpfs; throws when neither can (not root). */
    public static ScratchFileSystem best(long sizeBytes) throws IOException, InterruptedException {
        return loopUnavailableReason().isEmpty() ? loopExt4(sizeBytes) : tmpfs(sizeBytes);
    }

    private static void require(Optional<String> reason) throws IOException {
        if (reason.isPresent()) {
            throw new IOException("cannot make a scratch file system: " + reason.get());
        }
    }

    private static Path newMountPoint() throws IOException, InterruptedException {
        sweepOnce();
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        while (true) {
            Path dir = tmp.resolve(PREFIX + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
            try {
                return Files.createDirectory(dir);
            } catch (java.nio.file.FileAlreadyExistsException taken) {
                // left by an earlier JVM of the same pid that the sweep could not remove: take the next number
            }
        }
    }

    private static void sweepOnce() throws InterruptedException {
        synchronized (SWEEP) {
            if (!swept) {
                swept = true;
                sweep();
            }
        }
    }

    /**
     * Removes what processes that no longer run left behind: their scratch mounts (lazily, if busy), loop
     * devices over their images, the images and mount points. Returns what it removed, for a log line.
     */
    public static List<String> sweep() throws InterruptedException {
        List<String> removed = new ArrayList<>();
        for (String mountPoint : mountPoints()) {
            if (stale(Path.of(mountPoint).getFileName().toString())) {
                Commands.Result r = Commands.run(List.of("umount", mountPoint));
                if (!r.ok()) {
                    r = Commands.run(List.of("umount", "-l", mountPoint));
                }
                removed.add("mount " + mountPoint + (r.ok() ? "" : " (umount failed: " + r.output() + ")"));
            }
        }
        for (String[] loop : loopDevices()) {
            if (stale(Path.of(loop[1]).getFileName().toString())) {
                Commands.Result r = Commands.run(List.of("losetup", "-d", loop[0]));
                removed.add("loop " + loop[0] + " over " + loop[1] + (r.ok() ? "" : " (losetup -d failed: " + r.output() + ")"));
            }
        }
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmp, PREFIX + "*")) {
            for (Path p : entries) {
                if (stale(p.getFileName().toString()) && !mountPoints().contains(p.toString())) {
                    deleteTree(p);
                    removed.add("file " + p);
                }
            }
        } catch (IOException e) {
            removed.add("(could not list " + tmp + ": " + e.getMessage() + ")");
        }
        if (!removed.isEmpty()) {
            System.getLogger(ScratchFileSystems.class.getName()).log(System.Logger.Level.INFO,
                    "removed scratch file systems of processes that are gone: " + removed);
        }
        return removed;
    }

    /** Whether a name is a scratch file system's whose process has ended. */
    static boolean stale(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return false;
        }
        long pid = Long.parseLong(m.group(1));
        return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).map(ph -> !ph.isAlive()).orElse(true);
    }

    /** Mount points now mounted, from /proc/self/mounts (octal escapes decoded). */
    static List<String> mountPoints() {
        List<String> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.UTF_8)) {
                String[] f = line.split(" ");
                if (f.length > 1 && f[1].contains(PREFIX)) {
                    out.add(f[1].replace("\\040", " ").replace("\\011", "\t").replace("\\134", "\\"));
                }
            }
        } catch (IOException e) {
            // no /proc: nothing mounted that this could see
        }
        return out;
    }

    /** Loop devices whose backing file is a scratch image: {device, backing file}. */
    static List<String[]> loopDevices() {
        List<String[]> out = new ArrayList<>();
        try (Stream<Path> devices = Files.list(Path.of("/sys/block"))) {
            for (Path dev : (Iterable<Path>) devices.filter(p -> p.getFileName().toString().startsWith("loop"))::iterator) {
                Path backing = dev.resolve("loop").resolve("backing_file");
                if (Files.isReadable(backing)) {
                    String file = Files.readString(backing, StandardCharsets.UTF_8).strip();
                    if (file.contains(PREFIX)) {
                        out.add(new String[] {"/dev/" + dev.getFileName(), file.replace(" (deleted)", "")});
                    }
                }
            }
        } catch (IOException e) {
            // no /sys/block: no loop devices to see
        }
        return out;
    }

    static void deleteTree(Path p) {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path q : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(q);
            }
        } catch (IOException e) {
            System.getLogger(ScratchFileSystems.class.getName()).log(System.Logger.Level.WARNING,
                    "could not remove " + p + ": " + e.getMessage());
        }
    }
}
