package org.edgelab.storage.raw.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.edgelab.plugin.Setting;

/**
 * The {@code read-ahead} setting of the raw engines, applied to every file they open for reading: {@code off} (the
 * default) advises {@code POSIX_FADV_RANDOM}, so the kernel reads only the pages a read or sendfile asks for;
 * {@code kernel} leaves the device's read-ahead in place.
 *
 * <p>Why off: a store larger than memory is read at random, one object at a time, and the kernel's read-ahead
 * (8 MiB on this machine's virtio disk: {@code /sys/block/vda/queue/read_ahead_kb} = 8192) reads past each object
 * into its neighbours in a raw-log segment, and under memory pressure those pages are evicted before anything asks
 * for them. Measured on 2026-12-01 in a short run on 2 loaded cores ({@code docs/larger-than-memory.yaml} scaled
 * to a 320 MiB memory cgroup over 1,200 objects of 1 MB, all hits, 20 connections, 8 s), device bytes read per
 * body byte served: raw-log 2.96 with the kernel's read-ahead, 0.86 with it off (same req/s, 431 and 424);
 * raw-files 0.88 and 0.86 (an object file ends where its object ends, so read-ahead cannot run into a neighbour);
 * Varnish {@code file} 0.82 in the same runs, which makes the same choice ({@code madvise(MADV_RANDOM)} on its
 * map, the default of its {@code advice} parameter). Recovery's scan of the log runs before the advice is given,
 * with the kernel's read-ahead.
 *
 * <p>Thread-safe: {@link #apply} is one system call per file; where advice cannot be given (not Linux, no JNA, the
 * JVM without {@code --add-opens java.base/sun.nio.ch}), the kernel's read-ahead stays, a warning is logged once and
 * {@link #status()} says why.
 */
public final class ReadAhead {

    /** The setting, for an engine's list of settings. */
    public static final Setting SETTING = new Setting("read-ahead", "off",
            "off: tell the kernel reads are random (POSIX_FADV_RANDOM), so it reads only what is asked for (a store"
                    + " larger than memory reads 1.0x what it serves); kernel: the device's read-ahead");

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
