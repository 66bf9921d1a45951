package org.edgelab.storage.contract;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.edgelab.storage.disk.ScratchFileSystem;
import org.edgelab.storage.disk.ScratchFileSystems;
import org.junit.jupiter.api.Assumptions;

/**
 * A small file system that a fault test mounts for itself ({@link ScratchFileSystems}: a tmpfs, or ext4 on
 * a loop device), so that it really fills up (ENOSPC from the kernel, not a simulated error). Mounting
 * needs root: without it the test is skipped with the reason, unless {@code EDGELAB_REQUIRE_ROOT=1}, which
 * makes it fail instead. {@link #close()} removes it; a shutdown hook does the same if the JVM ends first.
 * Not thread-safe: one test owns a mount.
 */
public final class ScratchMount implements AutoCloseable {

    /** The environment variable that turns a skip for want of root into a failure. */
    public static final String REQUIRE_ROOT = "EDGELAB_REQUIRE_ROOT";

    private final ScratchFileSystem fs;

    private ScratchMount(ScratchFileSystem fs) {
        this.fs = fs;
    }

    /** Mounts a tmpfs of {@code sizeBytes}, or skips (fails with {@code EDGELAB_REQUIRE_ROOT=1}) saying why it cannot. */
    public static ScratchMount tmpfs(long sizeBytes) throws IOException, InterruptedException {
        require(ScratchFileSystems.unavailableReason());
        return new ScratchMount(ScratchFileSystems.tmpfs(sizeBytes));
    }

    /** Mounts ext4 on a loop device over a sparse file of {@code sizeBytes}, or skips (fails when required) saying why. */
    public static ScratchMount loopExt4(long sizeBytes) throws IOException, InterruptedException {
        require(ScratchFileSystems.loopUnavailableReason());
        return new ScratchMount(ScratchFileSystems.loopExt4(sizeBytes));
    }

    /** Returns normally where this process may mount file systems; skips or fails the test otherwise. */
    public static void require(Optional<String> reason) {
        if (reason.isEmpty()) {
            return;
        }
        if ("1".equals(System.getenv(REQUIRE_ROOT))) {
            throw new AssertionError(reason.get() + " (" + REQUIRE_ROOT + "=1, so this fails instead of skipping)");
        }
        Assumptions.abort(reason.get() + "; skipped (set " + REQUIRE_ROOT + "=1 to fail instead)");
    }

    /** Returns the mounted directory. */
    public Path dir() {
        return fs.dir();
    }

    /** Returns the file system itself. */
    public ScratchFileSystem fileSystem() {
        return fs;
    }

    /** Returns the bytes still free on the mount. */
    public long usableBytes() throws IOException {
        return fs.usableBytes();
    }

    /** Removes the file system; idempotent. */
    @Override
    public void close() throws IOException, InterruptedException {
        fs.close();
    }

    @Override
    public String toString() {
        return fs.toString();
    }
}
