package org.edgelab.storage.lmdb;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.eviction.EvictionPolicies;
import org.edgelab.units.ByteSize;

/**
 * The validated settings of an LMDB store. At least one of {@code map-size} and {@code capacity}
 * should be given: the other is derived so that the byte budget keeps {@link #MAP_HEADROOM} of
 * the map free for LMDB's own needs (free-page list, copy-on-write copies of a batch, pages held
 * by readers). Immutable.
 *
 * <p>{@code read-ahead} ({@link #readAhead()}; {@code off} by default) opens the environment with
 * {@code MDB_NORDAHEAD}: LMDB advises {@code madvise(MADV_RANDOM)} on its map, so a page fault reads the page it
 * touches instead of the kernel's read-around window (the device's read-ahead, 8 MiB on this machine's virtio disk,
 * around every fault). With a store larger than memory that window is evicted before it is used: in a short run on
 * 2026-12-01 (1,200 objects of 1 MB in a 320 MiB memory cgroup, all hits, 20 connections, 2 loaded cores) lmdb read
 * 173 device bytes per body byte served and answered 2.5 req/s with the kernel's read-around, against Varnish
 * {@code file}'s 0.82 (whose {@code advice} parameter defaults to MADV_RANDOM for the same reason).
 *
 * <p>{@code recency-interval} ({@link #recencyIntervalMillis()}; 10 s by default, {@code 0}: only at close) is how
 * often the store writes when each object was last used to its recency file, by which a restarted store orders its
 * eviction policy (see {@link LmdbStore}).
 */
record LmdbSettings(Path path, long mapSize, long capacity, int chunkSize, String policy,
                           SyncMode sync, int batchMax, VerifyMode verify, boolean readAhead,
                           long recencyIntervalMillis) {

    /** The share of the map kept out of the byte budget. */
    static final double MAP_HEADROOM = 0.25;
    static final long DEFAULT_MAP_SIZE = 1L << 30;
    static final int DEFAULT_CHUNK_SIZE = 256 * 1024;
    static final int MIN_CHUNK_SIZE = 4 * 1024;
    static final int MAX_CHUNK_SIZE = 64 * 1024 * 1024;
    static final long MIN_MAP_SIZE = 1L << 20;
    /** How often the recency file is written by default: a crash loses at most this much of the order of use. */
    static final long DEFAULT_RECENCY_INTERVAL_MILLIS = 10_000;

    /** The settings the engine understands, with defaults and meanings. */
    static final List<Setting> SPECS = List.of(
            new Setting("path", null, "directory of the LMDB environment (created if missing)"),
            new Setting("map-size", "capacity / 0.75, else 1GiB",
                    "LMDB map size: the most the data file can ever grow to"),
            new Setting("capacity", "0.75 x map-size",
                    "byte budget of stored objects (B-tree overhead included); at most 0.75 x map-size"),
            new Setting("chunk-size", "256KiB",
                    "bytes per LMDB value, rounded down so a value and its 16-byte page header fill whole pages"),
            new Setting("policy", "lru", "eviction policy (see EvictionPolicies)"),
            new Setting("sync", "full",
                    "full: fsync per commit; nometasync: a power cut may undo the last commit; nosync: no fsync, "
                            + "a power cut may undo recent commits or damage the file (a killed process loses nothing in any mode)"),
            new Setting("batch-max", "64", "most chunk and metadata writes committed in one transaction"),
            new Setting("verify", "once",
                    "chunk checksums: once = an object found at open is checked whole at its first lookup (a damaged"
                            + " one is a miss); always = also every chunk a reader touches; never = not checked"),
            new Setting("read-ahead", "off",
                    "off: MDB_NORDAHEAD, LMDB advises MADV_RANDOM on its map so a page fault reads only what is touched"
                            + " (a store larger than memory reads about what it serves); kernel: the kernel's read-around"),
            new Setting("recency-interval", "10s", "how often when each object was last used is written to a file, so"
                    + " that a restarted store evicts the least recently used first, not the first written; 0 = only at"
                    + " close (a crash then loses the order)"));

    public LmdbSettings {
        if (chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
            throw new IllegalArgumentException("engine setting 'chunk-size' must be between "
                    + ByteSize.format(MIN_CHUNK_SIZE) + " and " + ByteSize.format(MAX_CHUNK_SIZE) + ", got " + chunkSize);
        }
        if (mapSize < MIN_MAP_SIZE) {
            throw new IllegalArgumentException("engine setting 'map-size' must be at least "
                    + ByteSize.format(MIN_MAP_SIZE) + ", got " + mapSize);
        }
        if (capacity <= 0) {
            throw new IllegalArgumentException("engine setting 'capacity' must be positive, got " + capacity);
        }
        java.util.Objects.requireNonNull(verify, "verify");
        if (batchMax < 1 || batchMax > 100_000) {
            throw new IllegalArgumentException("engine setting 'batch-max' must be between 1 and 100000, got " + batchMax);
        }
        if (recencyIntervalMillis < 0) {
            throw new IllegalArgumentException("engine setting 'recency-interval' must not be negative, got "
                    + recencyIntervalMillis + " ms");
        }
    }

    /** Settings with chunk checksums checked {@link VerifyMode#ONCE}. */
    LmdbSettings(Path path, long mapSize, long capacity, int chunkSize, String policy, SyncMode sync, int batchMax) {
        this(path, mapSize, capacity, chunkSize, policy, sync, batchMax, VerifyMode.ONCE);
    }

    /** Settings with the default {@code read-ahead=off}. */
    LmdbSettings(Path path, long mapSize, long capacity, int chunkSize, String policy, SyncMode sync, int batchMax,
                 VerifyMode verify) {
        this(path, mapSize, capacity, chunkSize, policy, sync, batchMax, verify, false);
    }

    /** Settings with the default {@code recency-interval} (10 s). */
    LmdbSettings(Path path, long mapSize, long capacity, int chunkSize, String policy, SyncMode sync, int batchMax,
                 VerifyMode verify, boolean readAhead) {
        this(path, mapSize, capacity, chunkSize, policy, sync, batchMax, verify, readAhead,
                DEFAULT_RECENCY_INTERVAL_MILLIS);
    }

    /** Reads and validates settings; unknown names were rejected by the registry already. */
    static LmdbSettings from(PluginSettings s) {
        s.requireOnly("engine", LmdbEngine.NAME, SPECS);
        Path path = Path.of(s.required("path"));
        long capacity = s.bytes("capacity", -1);
        long mapSize = s.bytes("map-size", capacity > 0 ? (long) Math.ceil(capacity / (1 - MAP_HEADROOM)) : DEFAULT_MAP_SIZE);
        if (capacity < 0) {
            capacity = usableBytes(mapSize);
        }
        long chunk = s.bytes("chunk-size", DEFAULT_CHUNK_SIZE);
        String policy = s.string("policy", "lru");
        EvictionPolicies.registry().get(policy); // fails naming the known policies
        return new LmdbSettings(path, mapSize, capacity, (int) Math.min(chunk, Integer.MAX_VALUE), policy,
                SyncMode.parse(s.string("sync", "full")), s.integer("batch-max", 64),
                VerifyMode.parse(s.string("verify", "once")), readAhead(s.string("read-ahead", "off")),
                s.duration("recency-interval", Duration.ofMillis(DEFAULT_RECENCY_INTERVAL_MILLIS)).toMillis());
    }

    private static boolean readAhead(String value) {
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "off" -> false;
            case "kernel" -> true;
            default -> throw new IllegalArgumentException("engine setting 'read-ahead' must be off or kernel, got '"
                    + value + "'");
        };
    }

    /** Returns the largest byte budget the map size allows. */
    static long usableBytes(long mapSize) {
        return (long) (mapSize * (1 - MAP_HEADROOM));
    }

    /** Returns the byte budget in force: the capacity, cut to what the map size allows. */
    long budget() {
        return Math.min(capacity, usableBytes(mapSize));
    }
}
