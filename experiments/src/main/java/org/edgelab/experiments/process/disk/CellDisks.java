package org.edgelab.experiments.process.disk;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.edgelab.storage.disk.FileSystemShutdown;
import org.edgelab.storage.disk.ScratchFileSystem;
import org.edgelab.storage.disk.ScratchFileSystems;
import org.edgelab.units.ByteSize;

/**
 * The separate file systems one cell's store lives on: {@code count} of {@code sizeBytes} each, ext4 on loop devices
 * over sparse files where the kernel has loop devices, else tmpfs mounts. One of them can be failed for real
 * ({@link #fail}: an ext4 forced shutdown, {@link FileSystemShutdown}) and healed ({@link #heal}: unmounted, checked by
 * {@code e2fsck}, mounted again with its data). {@link #close()} removes every mount, loop device and image, as do a
 * shutdown hook per file system and the sweep of leftovers of dead runners that the first mount of a process runs
 * ({@link ScratchFileSystems}). Root only. Not thread-safe: one cell's runner thread owns it; every method blocks on
 * the tools it runs.
 */
public final class CellDisks implements AutoCloseable {

    private final List<ScratchFileSystem> disks;

    private CellDisks(List<ScratchFileSystem> disks) {
        this.disks = disks;
    }

    /** Why no file system can be made here (not root), or empty. */
    public static Optional<String> unavailableReason() {
        return ScratchFileSystems.unavailableReason();
    }

    /** Why no disk could be failed for real here (no root, no loop devices or e2fsprogs), or empty. */
    public static Optional<String> faultUnavailableReason() {
        return ScratchFileSystems.loopUnavailableReason().map(r -> r + "; a disk failure needs ext4 on a loop device"
                + " (a tmpfs can fill up but cannot fail)");
    }

    /** Makes and mounts {@code count} file systems of {@code sizeBytes}; on a failure removes those already made. */
    public static CellDisks make(int count, long sizeBytes) throws IOException, InterruptedException {
        List<ScratchFileSystem> made = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                made.add(ScratchFileSystems.best(sizeBytes));
            }
            return new CellDisks(made);
        } catch (IOException | InterruptedException | RuntimeException e) {
            for (ScratchFileSystem fs : made) {
                try {
                    fs.close();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /** The mount points, in disk order. */
    public List<Path> dirs() {
        return disks.stream().map(ScratchFileSystem::dir).toList();
    }

    /** How many. */
    public int count() {
        return disks.size();
    }

    /** What they are, for a row and the manifest: {@code 2 x ext4 on loop devices of 256 MiB}. */
    public String describe() {
        ScratchFileSystem first = disks.get(0);
        String kind = first.kind() == ScratchFileSystem.Kind.LOOP_EXT4 ? "ext4 on loop device" : "tmpfs";
        return String.format(Locale.ROOT, "%d x %s%s of %s", disks.size(), kind, disks.size() > 1 ? "s" : "",
                ByteSize.format(first.sizeBytes()));
    }

    /** Whether {@link #fail} can fail them for real (ext4 on loop devices). */
    public boolean canFail() {
        return disks.stream().allMatch(d -> d.kind() == ScratchFileSystem.Kind.LOOP_EXT4);
    }

    /** Fails disk {@code disk} now: every I/O on it gives EIO from the kernel until it is healed. */
    public void fail(int disk) throws IOException {
        if (!canFail()) {
            throw new IOException("disk " + disk + " is a tmpfs, which cannot fail; " + faultUnavailableReason().orElse(""));
        }
        FileSystemShutdown.shutDown(disks.get(disk).dir());
    }

    /**
     * Heals a failed disk as an operator would: unmounts it once nothing has a file open on it (waiting up to
     * {@code patience}), checks it with {@code e2fsck -p} and mounts it again on the same directory with what it held.
     * Returns empty when it is back, else why not (a file still open on it: the store has not let go of the disk).
     */
    public Optional<String> heal(int disk, Duration patience) throws InterruptedException {
        ScratchFileSystem fs = disks.get(disk);
        long deadline = System.nanoTime() + patience.toNanos();
        IOException last;
        while (true) {
            try {
                fs.unmount();
                break;
            } catch (IOException busy) {
                last = busy;
            }
            if (System.nanoTime() > deadline) {
                return Optional.of("not unmounted within " + patience.toSeconds() + " s (a file on it is still open): "
                        + last.getMessage());
            }
            Thread.sleep(200);
        }
        try {
            fs.mountAgain();
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Removes every file system (unmounted lazily when busy), loop device and image; throws listing what stayed. */
    @Override
    public void close() throws IOException, InterruptedException {
        IOException failed = null;
        for (ScratchFileSystem fs : disks) {
            try {
                fs.close();
            } catch (IOException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
