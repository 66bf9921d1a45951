package org.edgelab.storage.raw.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.plugin.Setting;

/**
 * The {@code read-ahead} setting of the raw engines, applied to every file they open for reading: {@code off}
 * advises {@code POSIX_FADV_RANDOM}, so the kernel reads only the pages a read or sendfile asks for; {@code kernel}
 * leaves the device's read-ahead in place. raw-log's default is {@code off} ({@link #SETTING}), raw-files'
 * {@code kernel} ({@link #FILES_SETTING}).
 *
 * <p>Why off for raw-log: a store larger than memory is read at random, one object at a time, and the kernel's
 * read-ahead (8 MiB on this machine's virtio disk, 2.5 MiB on its loop devices) reads past each object into its
 * neighbours in a segment, and under memory pressure those pages are evicted before anything asks for them. Measured
 * on 2026-12-01 in a short run on 2 loaded cores ({@code docs/larger-than-memory.yaml} scaled to a 320 MiB memory
 * cgroup over 1,200 objects of 1 MB, all hits, 20 connections, 8 s), device bytes read per body byte served: raw-log
 * 2.96 with the kernel's read-ahead, 0.86 with it off (same req/s, 431 and 424); Varnish {@code file} 0.82 in the
 * same runs, which makes the same choice ({@code madvise(MADV_RANDOM)} on its map, the default of its {@code advice}
 * parameter). A raw-log reader reading ahead through an open file of its own (so the window follows its object
 * only) read 3.45x at 10 MB in the storage-bound regime (2026-12-07): still into the neighbours. Recovery's scan of
 * the log runs before the advice is given, with the kernel's read-ahead.
 *
 * <p>Why kernel for raw-files: an object file ends where its object ends, so the read-ahead of the reader's own
 * open file cannot run into a neighbour, and its pages come in large folios, where {@code WILLNEED} over a range adds
 * 4 KiB pages one at a time, each charged to the memory cgroup and later reclaimed on its own
 * ({@link PageIn.Method#SENDFILE_READ_AHEAD}). In a 1 GiB memory cgroup over a 5 GB set (docs/BENCHMARKS.md,
 * 2026-12-07), against {@code off}: 1.17x the req/s at 100 KB (one repetition), 1.45x at 1 MB, 1.62x at 10 MB, at
 * 0.84x, 0.66x and 0.63x the CPU per GB; device bytes per byte served 0.85, 0.92 and 1.25 (0.85, 0.89, 1.08 with
 * {@code off}).
 *
 * <p>Thread-safe: {@link #apply} is one system call per file; where advice cannot be given (not Linux, no JNA, the
 * JVM without {@code --add-opens java.base/sun.nio.ch}), the kernel's read-ahead stays, a warning is logged once and
 * {@link #status()} says why.
 */
public final class ReadAhead {

    /** The setting as raw-log has it: {@code off} by default. */
    public static final Setting SETTING = new Setting("read-ahead", "off",
            "off: tell the kernel reads are random (POSIX_FADV_RANDOM), so it reads only what is asked for (a store"
                    + " larger than memory reads 1.0x what it serves); kernel: the device's read-ahead");

    /** The setting as raw-files has it: {@code kernel} by default (each object file ends where its object does). */
    public static final Setting FILES_SETTING = new Setting("read-ahead", "kernel",
            "kernel: the device's read-ahead, per object file (it stops at the file's end; pages come in large"
                    + " folios, fewer CPU cycles per byte); off: only the pages asked for (POSIX_FADV_RANDOM and"
                    + " WILLNEED, 4 KiB pages)");

    private static final System.Logger LOG = System.getLogger(ReadAhead.class.getName());

    private final boolean off;
    private final AtomicBoolean warned = new AtomicBoolean();
    private volatile String status;

    private ReadAhead(boolean off) {
        this.off = off;
        this.status = off ? FileAdvice.unavailableReason().map(r -> "kernel (advice unavailable: " + r + ")")
                .orElse("off (POSIX_FADV_RANDOM)") : "kernel";
    }

    /** Parses the setting's value ({@code off} or {@code kernel}); fails naming both. */
    public static ReadAhead parse(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "off" -> new ReadAhead(true);
            case "kernel" -> new ReadAhead(false);
            default -> throw new IllegalArgumentException("engine setting 'read-ahead' must be off or kernel, got '"
                    + value + "'");
        };
    }

    /** Whether the kernel's read-ahead is to be turned off. */
    public boolean off() {
        return off;
    }

    /**
     * How {@link PageIn} brings in a range of a file that one reader opened for itself under this setting (raw-files'
     * object files): with {@code off}, {@code WILLNEED} over exactly the range; with {@code kernel}, the file's own
     * read-ahead, which follows that reader and brings pages in large folios (no {@code WILLNEED}).
     */
    public PageIn.Method pageInMethod() {
        return off ? PageIn.Method.SENDFILE_TO_NULL : PageIn.Method.SENDFILE_READ_AHEAD;
    }

    /**
     * Gives {@code channel}'s file the advice this setting asks for; never fails: where the kernel or this JVM
     * refuses, the file keeps the kernel's read-ahead and {@link #status()} says why.
     */
    public void apply(FileChannel channel) {
        if (!off) {
            return;
        }
        try {
            FileAdvice.advise(channel, FileAdvice.RANDOM);
        } catch (IOException e) {
            status = "kernel (advice failed: " + e.getMessage() + ")";
            if (warned.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.WARNING, "read-ahead=off, but the kernel could not be told: " + e.getMessage()
                        + "; files are read with the kernel's read-ahead");
            }
        }
    }

    /** What is in force, for the store's stats: {@code off (POSIX_FADV_RANDOM)}, {@code kernel}, or why advice failed. */
    public String status() {
        return status;
    }
}
