package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.edgelab.hashing.HashRing;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.units.ByteSize;

/**
 * The {@code raw-log} store the engine opens: one {@link RawLogStore} per disk, each a log of its own on an even share
 * of the capacity, and every object wholly on one of them, the disk a consistent-hash ring of its key names among the
 * disks that are ONLINE (as Traffic Server hashes each object to one stripe and Varnish's MSE allocates each object in
 * one store). A failed disk so loses its own objects and no others: one log spread over every disk interleaved the
 * extents of concurrent writers, and a failure of one disk of two cost 86-92 % of 10 MB objects (disk-failure run,
 * 2026-12-06, docs/BENCHMARKS.md). While a disk is out its keys go to the next disks of their ring order; once it is
 * taken back empty they are stored on it again, and a miss there is looked up on the next ONLINE disk, where the key
 * was stored meanwhile (counted once in {@code lookups}, and in {@code nextDiskLookups}); only about 1/N of the keys
 * move either way.
 * A removal reaches every disk, since a key may have been stored elsewhere while its disk was out.
 *
 * <p>Each disk's log keeps its own lock, index, checkpoint (in its directory) and disk probe, so writers and readers
 * of different disks never wait on one another. Thread-safe; calls block as the disk's log does (see
 * {@link #blockingCalls}).
 */
final class RawLogShards implements ObjectStore {

    /** Points per disk on the ring: with 1,000, a disk's share of the keys is within about 3 % of 1/N. */
    static final int POINTS_PER_DISK = 1000;

    private final String engineName;
    private final RawLogStore[] disks;
    private final HashRing ring;
    /** Misses on a key's disk looked up again on the next ONLINE one, and how many were found there. */
    private final LongAdder nextDiskLookups = new LongAdder();
    private final LongAdder nextDiskHits = new LongAdder();

    private RawLogShards(String engineName, RawLogStore[] disks) {
        this.engineName = engineName;
        this.disks = disks;
        List<String> names = new ArrayList<>();
        for (int d = 0; d < disks.length; d++) {
            names.add("disk-" + d);
        }
        this.ring = new HashRing(names, POINTS_PER_DISK);
    }

    /**
     * Opens a log on each of the configured disks (disk {@code d} with {@code config.forDisk(d)}). A disk that cannot be
     * opened is OFFLINE and probed like one that failed later, while the others serve; the open fails only when none
     * can be opened. Blocks on the disks (recovery).
     */
    static RawLogShards open(String engineName, RawLogConfig config, SegmentChannels opener) throws IOException {
        int n = config.disks().size();
        RawLogStore[] opened = new RawLogStore[n];
        try {
            for (int d = 0; d < n; d++) {
                int disk = d;
                SegmentChannels onThisDisk = (ignored, file) -> opener.open(disk, file);
                opened[d] = RawLogStore.open(engineName, config.forDisk(d), new DiskPlace(d, n), onThisDisk, n > 1);
            }
            boolean any = false;
            List<String> why = new ArrayList<>();
            for (int d = 0; d < n; d++) {
                any |= opened[d].online();
                why.add(config.disks().get(d) + ": " + opened[d].stats().extra().get("disk.0.reason"));
            }
            if (!any) {
                throw new IOException("raw-log could open none of its disks: " + String.join("; ", why));
            }
        } catch (IOException | RuntimeException e) {
            for (RawLogStore s : opened) {
                if (s != null) {
                    try {
                        s.close();
                    } catch (IOException | RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
            throw e;
        }
        return new RawLogShards(engineName, opened);
    }

    /** The disk the key lives on now: its own if ONLINE, else the next ONLINE one of its ring order, else its own. */
    int diskOf(CacheKey key) {
        if (disks.length == 1) {
            return 0;
        }
        long hash = key.hash64();
        int home = ring.firstOfHash(hash);
        if (disks[home].online()) {
            return home;
        }
        for (int d : ring.preferenceOfHash(hash)) {
            if (disks[d].online()) {
                return d;
            }
        }
        return home; // no disk is online: its own log answers (a miss, a refused write)
    }

    /** The disk the key belongs to when every disk is ONLINE (tests). */
    int homeDiskOf(CacheKey key) {
        return disks.length == 1 ? 0 : ring.firstOfHash(key.hash64());
    }

    // ---------------------------------------------------------------- ObjectStore

    @Override
    public String engineName() {
        return engineName;
    }

    @Override
    public Set<StoreCall> blockingCalls() {
        return disks[0].blockingCalls();
    }

    /**
     * Looks the key up on its disk and, on a miss there, on the next ONLINE disk of its ring order: where it was stored
     * while its own disk was out, so that a disk taken back empty does not turn its keys into misses a second time.
     */
    @Override
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        int disk = diskOf(key);
        Optional<StoredObject> found = disks[disk].lookup(key);
        if (found.isPresent() || disks.length == 1) {
            return found;
        }
        int next = nextOnline(key, disk);
        if (next < 0) {
            return found;
        }
        nextDiskLookups.increment();
        Optional<StoredObject> there = disks[next].lookup(key);
        if (there.isPresent()) {
            nextDiskHits.increment();
        }
        return there;
    }

    /** The first ONLINE disk after {@code disk} in the key's ring order, or -1. */
    private int nextOnline(CacheKey key, int disk) {
        boolean after = false;
        for (int d : ring.preferenceOfHash(key.hash64())) {
            if (after && disks[d].online()) {
                return d;
            }
            after |= d == disk;
        }
        return -1;
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        RawLogStore disk = disks[diskOf(key)];
        if (disks.length > 1 && metadata.length() > disk.maxObjectBytes()) {
            throw new StorageFullException("an object of " + ByteSize.format(metadata.length()) + " cannot fit in"
                    + " raw-log: each object lives wholly on one of its " + disks.length + " disks, whose log holds at"
                    + " most " + ByteSize.format(disk.maxObjectBytes()) + " per object");
        }
        return disk.begin(key, metadata);
    }

    @Override
    public boolean remove(CacheKey key) throws IOException {
        boolean[] removed = {false};
        onEveryDisk(disk -> removed[0] |= disk.remove(key));
        return removed[0];
    }

    /** One call on one disk's log. */
    private interface DiskCall {
        void on(RawLogStore disk) throws IOException;
    }

    /** Makes {@code call} on every disk, whatever fails; then throws the first failure, the others suppressed in it. */
    private void onEveryDisk(DiskCall call) throws IOException {
        IOException failed = null;
        for (RawLogStore disk : disks) {
            try {
                call.on(disk);
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

    /** Updates the object where {@link #lookup} finds it: on the key's disk, else on the next ONLINE one. */
    @Override
    public boolean updateMetadata(CacheKey key, ObjectMetadata metadata) throws IOException {
        int disk = diskOf(key);
        boolean updated = disks[disk].updateMetadata(key, metadata);
        if (updated || disks.length == 1) {
            return updated;
        }
        int next = nextOnline(key, disk);
        return next >= 0 && disks[next].updateMetadata(key, metadata);
    }

    @Override
    public StoreUsage usage() {
        long capacity = 0;
        long used = 0;
        long objects = 0;
        for (RawLogStore disk : disks) {
            StoreUsage u = disk.usage();
            capacity += u.capacityBytes();
            used += u.usedBytes();
            objects += u.objectCount();
        }
        return new StoreUsage(capacity, used, objects);
    }

    /**
     * Every disk's log's counters added up (a lookup asked of two disks counted once); their extras with each {@code disk.0.*} renamed {@code disk.N.*} and
     * {@code disk.N.objects} added, numbers added up (but the segment size, and the last checkpoint's time, the
     * latest), texts given once when every disk says the same and per disk otherwise.
     */
    @Override
    public StoreStats stats() {
        if (disks.length == 1) {
            return disks[0].stats();
        }
        long[] named = new long[11];
        Map<String, Object> extra = new LinkedHashMap<>();
        Map<String, Map<Integer, String>> texts = new LinkedHashMap<>(); // each text key's value on each disk
        long objects = 0;
        for (int d = 0; d < disks.length; d++) {
            StoreStats s = disks[d].stats();
            long[] these = {s.lookups(), s.lookupHits(), s.writesBegun(), s.writesCommitted(), s.writesAborted(),
                    s.bytesWritten(), s.bytesRead(), s.evictions(), s.evictedBytes(), s.removals(),
                    s.corruptObjectsDropped()};
            for (int i = 0; i < named.length; i++) {
                named[i] += these[i];
            }
            long diskObjects = disks[d].usage().objectCount();
            objects += diskObjects;
            extra.put("disk." + d + ".objects", diskObjects);
            for (Map.Entry<String, Object> e : s.extra().entrySet()) {
                String key = e.getKey();
                Object value = e.getValue();
                if (key.startsWith("disk.0.")) {
                    extra.put("disk." + d + key.substring("disk.0".length()), value);
                } else if (value instanceof Number number && !(value instanceof Double)) {
                    long v = number.longValue();
                    extra.merge(key, v, (a, b) -> key.equals("segmentSize") || key.equals("lastCheckpointMillis")
                            ? Math.max((Long) a, (Long) b) : (Long) a + (Long) b);
                } else if (!(value instanceof Double)) {
                    texts.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(d, String.valueOf(value));
                }
            }
        }
        for (Map.Entry<String, Map<Integer, String>> t : texts.entrySet()) {
            Map<Integer, String> perDisk = t.getValue();
            if (new LinkedHashSet<>(perDisk.values()).size() == 1 && perDisk.size() == disks.length) {
                extra.put(t.getKey(), perDisk.get(0));
            } else {
                List<String> each = new ArrayList<>();
                perDisk.forEach((d, v) -> each.add("disk " + d + ": " + v));
                extra.put(t.getKey(), String.join("; ", each));
            }
        }
        named[0] -= nextDiskLookups.sum(); // one lookup of the store, though two disks were asked
        extra.put("nextDiskLookups", nextDiskLookups.sum());
        extra.put("nextDiskHits", nextDiskHits.sum());
        Object indexBytes = extra.get("indexBytes");
        extra.put("indexBytesPerObject", objects == 0 || !(indexBytes instanceof Long b) ? 0.0 : (double) b / objects);
        extra.put("objectsPlacement", "each object wholly on one disk (consistent hash of its key over the online"
                + " disks, " + POINTS_PER_DISK + " points each)");
        return new StoreStats(named[0], named[1], named[2], named[3], named[4], named[5], named[6], named[7], named[8],
                named[9], named[10], extra);
    }

    @Override
    public void close() throws IOException {
        onEveryDisk(RawLogStore::close);
    }

    /** Probes every OFFLINE disk now; returns how many were taken back (tests; each disk's log probes on its own). */
    int probeDisksNow() {
        int back = 0;
        for (RawLogStore disk : disks) {
            back += disk.probeDisksNow();
        }
        return back;
    }

    /** Writes every disk's checkpoint now (tests; each disk's log also writes them periodically and at close). */
    void checkpoint() throws IOException {
        for (RawLogStore disk : disks) {
            if (disk.online()) {
                disk.checkpoint();
            }
        }
    }
}
