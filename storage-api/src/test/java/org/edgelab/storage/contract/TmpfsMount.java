package org.edgelab.storage.contract;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs that a fault test mounts for itself, so that a file system really fills up
 * (ENOSPC from the kernel, not a simulated error). Mounting needs root: without it the test is
 * skipped with the reason, unless {@code EDGELAB_REQUIRE_ROOT=1}, which makes it fail instead.
 * {@link #close()} unmounts (lazily if something still holds it) and removes the mount point; a
 * shutdown hook does the same if the JVM ends first (an interrupted build), so no mount is left.
 * Not thread-safe: one test owns a mount.
 */
public final class TmpfsMount implements AutoCloseable {

    /** The environment variable that turns a skip for want of root into a failure. */
    public static final String REQUIRE_ROOT = "EDGELAB_REQUIRE_ROOT";

    private final Path dir;
    private final Thread cleanupOnExit;
    private boolean unmounted;

    private TmpfsMount(Path dir) {
        this.dir = dir;
        this.cleanupOnExit = new Thread(this::unmountQuietly, "tmpfs-unmount " + dir);
        Runtime.getRuntime().addShutdownHook(cleanupOnExit);
    }

    /**
     * Mounts a tmpfs of {@code sizeBytes} on a fresh directory, or skips the calling test (aborts
     * it, as a failed assumption) when this process is not root or the mount is refused, saying
     * why; with {@code EDGELAB_REQUIRE_ROOT=1} those cases fail with an AssertionError instead.
     */
    public static TmpfsMount mount(long sizeBytes) throws IOException, InterruptedException {
        String why = rootMissing();
        if (why != null) {
            skipOrFail("a tmpfs mount needs root: " + why);
        }
        Path dir = Files.createTempDirectory("edgelab-tmpfs-");
        Run r = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + sizeBytes + ",mode=0700", "tmpfs", dir.toString()));
        if (r.exit != 0) {
            Files.deleteIfExists(dir);
            skipOrFail("mount -t tmpfs failed (exit " + r.exit + "): " + r.output.strip());
        }
        return new TmpfsMount(dir);
    }

    private static void skipOrFail(String reason) {
        if ("1".equals(System.getenv(REQUIRE_ROOT))) {
            throw new AssertionError(reason + " (" + REQUIRE_ROOT + "=1, so this fails instead of skipping)");
        }
        Assumptions.abort(reason + "; skipped (set " + REQUIRE_ROOT + "=1 to fail instead)");
    }

    /** Returns why this process cannot mount, or null when it runs as root. */
    private static String rootMissing() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return "no /proc/self/status (not Linux?)";
        }
        for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
            if (line.startsWith("Uid:")) {
                String[] ids = line.substring(4).trim().split("\\s+");
                return ids.length > 1 && ids[1].equals("0") ? null : "the effective uid is " + ids[1] + ", not 0";
            }
        }
        return "/proc/self/status has no Uid line";
    }

    /** Returns the mounted directory. */
    public Path dir() {
        return dir;
    }

    /** Returns the bytes still free on the mount. */
    public long usableBytes() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    /** Unmounts and removes the mount point; idempotent. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (unmounted) {
            return;
        }
        Run r = run(List.of("umount", dir.toString()));
        if (r.exit != 0) {
            r = run(List.of("umount", "-l", dir.toString())); // something still has a file open: detach it
        }
        if (r.exit != 0) {
            throw new IOException("cannot unmount the test tmpfs " + dir + ": " + r.output.strip());
        }
        unmounted = true;
        Files.deleteIfExists(dir);
        try {
            Runtime.getRuntime().removeShutdownHook(cleanupOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it finds the mount gone
        }
    }

    private void unmountQuietly() {
        try {
            close();
        } catch (IOException | InterruptedException | RuntimeException e) {
            System.err.println("tmpfs " + dir + " could not be unmounted at exit: " + e);
        }
    }

    private record Run(int exit, String output) {
    }

    private static Run run(List<String> command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new Run(127, command.get(0) + " could not be run: " + e.getMessage());
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Run(124, command + " did not finish within 30 s");
        }
        return new Run(p.exitValue(), out);
    }

    @Override
    public String toString() {
        return "tmpfs " + dir;
    }
}
