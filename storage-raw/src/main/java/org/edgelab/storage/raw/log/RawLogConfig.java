package org.edgelab.storage.raw.log;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.raw.io.ReadAhead;
import org.edgelab.units.ByteSize;
import org.edgelab.units.Durations;

/**
 * The typed settings of a {@code raw-log} store, parsed and checked from {@link PluginSettings}.
 * Immutable and thread-safe.
 *
 * @param disks                    directories holding the segment files, one per disk
 * @param capacityBytes            total bytes of segment files across all disks, an even share on each
 * @param segmentSize              bytes per segment file (the unit of eviction)
 * @param policy                   what happens to the objects of a reclaimed segment
 * @param sync                     when written bytes are forced to the device
 * @param checkpointIntervalMillis how often the index is checkpointed; 0 only at close
 * @param directIo                 whether body extents are written and read with O_DIRECT (where supported)
 * @param readAhead                whether the kernel reads ahead in segment files once the store is open
 * @param diskProbeIntervalMillis  how often an OFFLINE disk is probed to be taken back; 0 never (until the next open)
 * @param verify                   when extents are checked against their CRC32C as they are read
 */
record RawLogConfig(List<Path> disks, long capacityBytes, long segmentSize, Policy policy, SyncMode sync,
                    long checkpointIntervalMillis, boolean directIo, ReadAhead readAhead, long diskProbeIntervalMillis,
                    Verify verify) {

    /** When a reader checks an extent's bytes against its CRC32C before it serves or offers them. */
    enum Verify {
        /**
         * An object found on disk at open is checked whole at its first lookup (a damaged one is a miss); after that,
         * and for objects this process wrote (it checksummed them as it wrote), readers trust the bytes: a hit is
         * then sent with {@code sendfile} without reading it into the process first. The default, as lmdb's.
         */
        ONCE,
        /** Also every extent each reader touches, before its bytes leave (damage while the store runs is found). */
        ALWAYS,
        /** Never checked: to measure what checking costs. */
        NEVER
    }

    /** Eviction of a reclaimed segment. */
    enum Policy {
        /** Every object of the oldest segment is evicted. */
        FIFO,
        /**
         * The bytes in the oldest segment of objects read since they were written (or last
         * re-appended) are re-appended first, the rest evicted (CacheLib's reinsertion): the
         * default, so the warm set survives the log wrapping around.
         */
        REINSERT
    }

    /** When written bytes are forced to the device. */
    enum SyncMode {
        /** {@code commit()} returns after the object's extents and commit record are forced. */
        COMMIT,
        /** Segment files are forced once a second. */
        INTERVAL,
        /** Forced only before each checkpoint and at close; the OS writes back the rest. */
        NONE
    }

    static final long MIN_SEGMENT = 64 * 1024;
    static final long DEFAULT_SEGMENT = 64L << 20;
    static final int MIN_SEGMENTS = 4;
    /**
     * Segments per store when segment-size is auto: a reader pins whole segments, so small stores
     * need many of them to keep writing while readers hold objects.
     */
    static final int AUTO_SEGMENTS = 64;

    static final List<Setting> SPECS = List.of(
            new Setting("disks", null,
                    "comma-separated directories, one per disk, that hold the segment files (required; created if missing)"),
            new Setting("capacity", "1g",
                    "total bytes of segment files, an even share on each disk, which keeps a log of its own (e.g. 100g)"),
            new Setting("segment-size", "auto",
                    "bytes per segment file, the unit of eviction (64 KiB to 1 TiB); auto = each disk's capacity/64 within [64k, 64m]"),
            new Setting("policy", "reinsert",
                    "reinsert: re-append what the oldest segment holds of objects read since written, evict the"
                            + " rest (keeps the warm set); fifo: evict the oldest segment whole"),
            new Setting("sync", "none",
                    "commit: fsync before commit returns; interval: fsync every second; none: fsync at checkpoints only"),
            new Setting("checkpoint-interval", "30s",
                    "how often the index is checkpointed (e.g. 500ms, 30s, 5m); 0 = only at close"),
            new Setting("direct-io", "false",
                    "true: write and read bodies with O_DIRECT through aligned buffers, bypassing the page cache, as"
                            + " Traffic Server does (hits are copied, not sent with sendfile; falls back to buffered I/O,"
                            + " with a warning, where the file system refuses O_DIRECT)"),
            ReadAhead.SETTING,
            new Setting("disk-probe-interval", "1s",
                    "how often a disk that failed (OFFLINE) is probed: once its directory answers again (its layout"
                            + " file read, a small file written, forced and read back) it is taken back empty; 0 = never"
                            + " while the store runs"),
            new Setting("verify", "once",
                    "extent checksums: once = an object found at open is checked whole at its first lookup (a damaged one"
                            + " is a miss), then trusted like those this process wrote, and hits go out by sendfile"
                            + " unread; always = also every extent a reader touches, before its bytes leave; never = not"
                            + " checked"));

    /** The default {@code disk-probe-interval}. */
    static final long DEFAULT_DISK_PROBE_MILLIS = 1000;

    RawLogConfig {
        disks = List.copyOf(disks);
        java.util.Objects.requireNonNull(readAhead, "readAhead");
        java.util.Objects.requireNonNull(verify, "verify");
        if (disks.isEmpty()) {
            throw new IllegalArgumentException("raw-log needs at least one disk directory");
        }
        if (new java.util.HashSet<>(disks.stream().map(p -> p.toAbsolutePath().normalize()).toList()).size()
                != disks.size()) {
            throw new IllegalArgumentException("raw-log's disks must be distinct directories, got " + disks);
        }
        if (segmentSize < MIN_SEGMENT || segmentSize % 4096 != 0 || segmentSize >= (1L << 40)) {
            throw new IllegalArgumentException("segment-size must be a multiple of 4 KiB between 64 KiB and 1 TiB, got "
                    + segmentSize);
        }
        long segments = capacityBytes / disks.size() / segmentSize;
        if (segments < MIN_SEGMENTS) {
            throw new IllegalArgumentException("capacity " + ByteSize.format(capacityBytes)
                    + (disks.size() == 1 ? "" : " over " + disks.size() + " disks") + " holds only " + segments
                    + " segments of " + ByteSize.format(segmentSize) + (disks.size() == 1 ? "" : " per disk")
                    + "; raw-log needs at least " + MIN_SEGMENTS + (disks.size() == 1 ? "" : " on each disk, which"
                    + " keeps a log of its own") + ": raise capacity or lower segment-size");
        }
        if (segments >= LogIndex.MAX_SLOTS) {
            throw new IllegalArgumentException("capacity / segment-size gives " + segments + " segments; at most "
                    + (LogIndex.MAX_SLOTS - 1) + " are supported: raise segment-size");
        }
        if (checkpointIntervalMillis < 0) {
            throw new IllegalArgumentException("checkpoint-interval cannot be negative");
        }
        if (diskProbeIntervalMillis < 0) {
            throw new IllegalArgumentException("disk-probe-interval cannot be negative");
        }
    }

    /** Settings with the default {@code verify=once}. */
    RawLogConfig(List<Path> disks, long capacityBytes, long segmentSize, Policy policy, SyncMode sync,
                 long checkpointIntervalMillis, boolean directIo, ReadAhead readAhead, long diskProbeIntervalMillis) {
        this(disks, capacityBytes, segmentSize, policy, sync, checkpointIntervalMillis, directIo, readAhead,
                diskProbeIntervalMillis, Verify.ONCE);
    }

    /** Returns these settings with {@code verify} set. */
    RawLogConfig withVerify(Verify v) {
        return new RawLogConfig(disks, capacityBytes, segmentSize, policy, sync, checkpointIntervalMillis, directIo,
                readAhead, diskProbeIntervalMillis, v);
    }

    /** Settings with the default {@code disk-probe-interval=1s}. */
    RawLogConfig(List<Path> disks, long capacityBytes, long segmentSize, Policy policy, SyncMode sync,
                 long checkpointIntervalMillis, boolean directIo, ReadAhead readAhead) {
        this(disks, capacityBytes, segmentSize, policy, sync, checkpointIntervalMillis, directIo, readAhead,
                DEFAULT_DISK_PROBE_MILLIS);
    }

    /** Returns these settings with {@code disk-probe-interval} set to {@code millis}. */
    RawLogConfig withDiskProbeIntervalMillis(long millis) {
        return new RawLogConfig(disks, capacityBytes, segmentSize, policy, sync, checkpointIntervalMillis, directIo,
                readAhead, millis, verify);
    }

    /** Settings with the default {@code read-ahead=off}. */
    RawLogConfig(List<Path> disks, long capacityBytes, long segmentSize, Policy policy, SyncMode sync,
                 long checkpointIntervalMillis, boolean directIo) {
        this(disks, capacityBytes, segmentSize, policy, sync, checkpointIntervalMillis, directIo, ReadAhead.parse("off"));
    }

    /** Returns the number of segment slots. */
    int segmentCount() {
        return (int) (capacityBytes / segmentSize);
    }

    /** Returns the settings of disk {@code d}'s own log: that one disk and an even share of the capacity. */
    RawLogConfig forDisk(int d) {
        return new RawLogConfig(List.of(disks.get(d)), capacityBytes / disks.size(), segmentSize, policy, sync,
                checkpointIntervalMillis, directIo, readAhead, diskProbeIntervalMillis, verify);
    }

    /** Parses and checks the settings; failures name the setting and what is accepted. */
    static RawLogConfig from(PluginSettings settings) {
        settings.requireOnly("engine", RawLogEngine.NAME, SPECS);
        if (settings.string("disks", null) == null || settings.string("disks", "").isBlank()) {
            throw new IllegalArgumentException("engine setting 'disks' is required for raw-log: give one directory per"
                    + " disk, comma-separated, e.g. disks=/mnt/nvme0/edgelab,/mnt/nvme1/edgelab");
        }
        List<Path> disks = settings.paths("disks", List.of());
        long capacity = settings.bytes("capacity", 1L << 30);
        String segmentText = settings.string("segment-size", "auto");
        long segment;
        if (segmentText.trim().equalsIgnoreCase("auto")) {
            segment = Math.max(MIN_SEGMENT, Math.min(DEFAULT_SEGMENT, capacity / Math.max(1, disks.size()) / AUTO_SEGMENTS) / 4096 * 4096);
        } else {
            segment = settings.bytes("segment-size", DEFAULT_SEGMENT);
        }
        Policy policy = choice("policy", settings.string("policy", "reinsert"), Policy.class);
        SyncMode sync = choice("sync", settings.string("sync", "none"), SyncMode.class);
        long interval = millis("checkpoint-interval", settings.string("checkpoint-interval", "30s"));
        boolean directIo = settings.bool("direct-io", false);
        ReadAhead readAhead = ReadAhead.parse(settings.string("read-ahead", "off"));
        long probe = millis("disk-probe-interval", settings.string("disk-probe-interval", "1s"));
        Verify verify = choice("verify", settings.string("verify", "once"), Verify.class);
        return new RawLogConfig(disks, capacity, segment, policy, sync, interval, directIo, readAhead, probe, verify);
    }

    private static <E extends Enum<E>> E choice(String name, String value, Class<E> type) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(value.trim())) {
                return e;
            }
        }
        StringBuilder known = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            known.append(known.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
        }
        throw new IllegalArgumentException("engine setting '" + name + "' must be one of " + known + ", got '" + value + "'");
    }

    static long millis(String name, String value) {
        try {
            return Durations.parse(value).toMillis();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("engine setting '" + name + "': " + e.getMessage(), e);
        }
    }
}
