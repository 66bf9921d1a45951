package org.edgelab.storage.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One file system EdgeLab mounted for itself ({@link ScratchFileSystems} makes them): a tmpfs, or ext4 on
 * a loop device over a sparse image. {@link #close()} unmounts it (lazily if a file is still open), detaches
 * its loop device and deletes its image and mount point; a shutdown hook does the same if the JVM ends
 * first (Ctrl-C, SIGTERM, an interrupted build). {@link #unmount()} and {@link #mountAgain()} take an ext4
 * one down and bring it back with its data (after {@code e2fsck}), as an operator heals a disk.
 * Thread-safe (its methods are synchronized); every method but the accessors blocks on the tools it runs.
 */
public final class ScratchFileSystem implements AutoCloseable {

    /** What is mounted. */
    public enum Kind {
        /** A tmpfs: memory-backed, fills up for real, cannot fail. */
        TMPFS,
        /** ext4 on a loop device over a sparse file. */
        LOOP_EXT4
    }

    private final Kind kind;
    private final Path dir;
    private final Path image;
    private final String device;
    private final long sizeBytes;
    private final Thread cleanupOnExit;
    private boolean mounted = true;
    private boolean closed;

    ScratchFileSystem(Kind kind, Path dir, Path image, String device, long sizeBytes) {
        this.kind = kind;
        this.dir = dir;
        this.image = image;
        this.device = device;
        this.sizeBytes = sizeBytes;
        this.cleanupOnExit = new Thread(this::closeQuietly, "scratch-fs-cleanup " + dir);
        Runtime.getRuntime().addShutdownHook(cleanupOnExit);
    }

    /** The mount point. */
    public Path dir() {
        return dir;
    }

    /** What is mounted. */
    public Kind kind() {
        return kind;
    }

    /** The loop device ({@code /dev/loopN}) of an ext4 one; empty for a tmpfs. */
    public Optional<String> device() {
        return Optional.ofNullable(device);
    }

    /** The size asked for (the image's or the tmpfs's). */
    public long sizeBytes() {
        return sizeBytes;
    }

    /** The bytes still free on it. */
    public long usableBytes() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    /** Whether it is mounted now. */
    public synchronized boolean mounted() {
        return mounted;
    }

    /**
     * Unmounts it, keeping its image and loop device; fails (and leaves it mounted) while a file on it is open,
     * since a lazily detached ext4 would keep its old state and be found again by the next mount.
     */
    public synchronized void unmount() throws IOException, InterruptedException {
        if (!mounted) {
            return;
        }
        Commands.require(List.of("umount", dir.toString()));
        mounted = false;
    }

    /** Checks an unmounted ext4 one with {@code e2fsck -p} (repairing what it can) and mounts it again on the same directory. */
    public synchronized void mountAgain() throws IOException, InterruptedException {
        if (mounted) {
            return;
        }
        if (kind != Kind.LOOP_EXT4) {
            throw new IOException("a tmpfs loses its content when unmounted: only a loop ext4 is mounted again");
        }
        Commands.Result fsck = Commands.run(List.of("e2fsck", "-p", device));
        if (fsck.exit() >= 4) {
            throw new IOException("e2fsck -p " + device + " left errors (exit " + fsck.exit() + "): " + fsck.output());
        }
        Commands.require(List.of("mount", "-t", "ext4", device, dir.toString()));
        mounted = true;
    }

    /** Unmounts (lazily if busy), detaches the loop device, deletes the image and the mount point; idempotent. */
    @Override
    public synchronized void close() throws IOException, InterruptedException {
        if (closed) {
            return;
        }
        StringBuilder failed = new StringBuilder();
        if (mounted) {
            Commands.Result r = Commands.run(List.of("umount", dir.toString()));
            if (!r.ok()) {
                r = Commands.run(List.of("umount", "-l", dir.toString())); // a file is still open: detach it
            }
            if (!r.ok()) {
                failed.append("umount ").append(dir).append(": ").append(r.output()).append("; ");
            } else {
                mounted = false;
            }
        }
        if (device != null) {
            // after a lazy unmount the kernel detaches the device itself once the last file closes (autoclear)
            Commands.Result r = Commands.run(List.of("losetup", "-d", device));
            if (!r.ok() && Files.exists(Path.of("/sys/block", Path.of(device).getFileName().toString(), "loop"))
                    && backingIsOurs()) {
                failed.append("losetup -d ").append(device).append(": ").append(r.output()).append("; ");
            }
        }
        if (image != null) {
            Files.deleteIfExists(image);
        }
        if (!mounted) {
            Files.deleteIfExists(dir);
        }
        closed = failed.length() == 0;
        if (closed) {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanupOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it finds everything gone
            }
        } else {
            throw new IOException("scratch file system " + dir + " not fully removed: " + failed);
        }
    }

    private boolean backingIsOurs() {
        try {
            Path backing = Path.of("/sys/block", Path.of(device).getFileName().toString(), "loop", "backing_file");
            return Files.readString(backing).strip().startsWith(image.toString());
        } catch (IOException e) {
            return false;
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException | InterruptedException | RuntimeException e) {
            System.err.println("scratch file system " + dir + " could not be removed at exit: " + e);
        }
    }

    @Override
    public String toString() {
        return (kind == Kind.TMPFS ? "tmpfs " : "ext4 on " + device + " ") + dir;
    }
}
