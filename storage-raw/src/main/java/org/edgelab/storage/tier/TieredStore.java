package org.edgelab.storage.tier;

import java.util.Collections;
import org.edgelab.storage.api.StoreCall;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoreCounters;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.api.StoredObject;

/**
 * A memory store in front of a disk store (the memory-plus-disk design).
 *
 * <ul>
 *   <li>Writes go through to disk and, when admitted, into memory at the same time; the write is
 *       committed once the disk commits. Objects above {@code bypass-above} stay out of memory.</li>
 *   <li>Lookups try memory, then disk. A disk hit is promoted (copied into memory in the
 *       background) when the admission rule and the bypass rules allow it; with
 *       {@code bypass-sequential}, objects large enough to be streamed are promoted only after a
 *       reader that never turned sequential closes them.</li>
 *   <li>Sequential readers of disk objects can be served from a per-reader read-ahead window.</li>
 * </ul>
 * Memory holds copies of disk objects (an inclusive hierarchy): a memory hit pins the disk copy
 * for as long as the reader holds it (see {@link PinnableStore}), and a memory copy whose disk
 * copy was evicted is dropped on its next lookup, so usage, capacity and object count are the
 * disk's; the memory tier shows in {@link StoreStats#extra()}. A per-key version (striped) keeps a background promotion from
 * installing a copy older than a later write or removal.
 *
 * <p>Thread-safe: both stores are; the version stripes are updated under their own monitors.
 */
public final class TieredStore implements ObjectStore {

    private static final System.Logger LOG = System.getLogger(TieredStore.class.getName());
    private static final int STRIPES = 1024;
    private static final int COPY_CHUNK = 64 * 1024;

    private final TierSettings settings;
    private final ObjectStore memory;
    private final ObjectStore disk;
    private final StoreCounters counters = new StoreCounters();
    private final TierCounters tierCounters = new TierCounters();
    private final SecondHitFilter secondHit = new SecondHitFilter(1 << 16);
    private final AtomicLongArray versions = new AtomicLongArray(STRIPES);
    private final Object[] stripeLocks = new Object[STRIPES];
    private final Set<CacheKey> promoting = ConcurrentHashMap.newKeySet();
    private final ThreadPoolExecutor promoter;
    private final ExecutorService readAheadPool;
    private volatile boolean closed;

    TieredStore(TierSettings settings, ObjectStore memory, ObjectStore disk) {
        this.settings = settings;
        this.memory = memory;
        this.disk = disk;
        for (int i = 0; i < STRIPES; i++) {
            stripeLocks[i] = new Object();
        }
        this.promoter = new ThreadPoolExecutor(1, 2, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(256),
                daemonThreads("tier-promote"), new ThreadPoolExecutor.AbortPolicy());
        this.readAheadPool = Executors.newFixedThreadPool(4, daemonThreads("tier-read-ahead"));
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    TierSettings settings() {
        return settings;
    }

    TierCounters counters() {
        return tierCounters;
    }

    @Override
    public String engineName() {
        return TieredEngine.NAME;
    }

    /** The disk engine's calls (a lookup, a write or a release may reach it) and the memory tier's (none). */
    @Override
    public Set<StoreCall> blockingCalls() {
        Set<StoreCall> calls = StoreCall.none();
        calls.addAll(disk.blockingCalls());
        calls.addAll(memory.blockingCalls());
        return Collections.unmodifiableSet(calls);
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        ensureOpen();
        counters.lookups.increment();
        Optional<StoredObject> inMemory = memory.lookup(key);
        if (inMemory.isPresent()) {
            Optional<PinnableStore.Pin> pin;
            try {
                pin = pinOnDisk(key);
            } catch (IOException | RuntimeException e) {
                inMemory.get().close();
                throw e;
            }
            if (pin.isPresent()) {
                counters.lookupHits.increment();
                tierCounters.memoryHits.increment();
                return Optional.of(new TieredMemoryObject(inMemory.get(), pin.get()));
            }
            inMemory.get().close();
            tierCounters.staleMemoryCopiesDropped.increment();
            synchronized (stripeLock(key)) {
                bumpVersion(key);
                removeFromMemory(key);
            }
            tierCounters.misses.increment();
            return Optional.empty();
        }
        long version = version(key);
        Optional<StoredObject> onDisk = disk.lookup(key);
        if (onDisk.isEmpty()) {
            tierCounters.misses.increment();
            return Optional.empty();
        }
        counters.lookupHits.increment();
        tierCounters.diskHits.increment();
        StoredObject d = onDisk.get();
        long size = d.availableLength();
        boolean admitted = admit(key, size);
        boolean deferred = false;
        if (admitted) {
            if (settings.bypassSequential() && size >= settings.sequentialAfterBytes()) {
                deferred = true;
            } else {
                promote(key, version);
            }
        }
        return Optional.of(new TieredDiskObject(this, d, deferred, version));
    }

    /** Pins the disk copy of an object served from memory (cheaply when the disk store supports it). */
    private Optional<PinnableStore.Pin> pinOnDisk(CacheKey key) throws IOException {
        if (disk instanceof PinnableStore p) {
            return p.pin(key);
        }
        Optional<StoredObject> o = disk.lookup(key);
        return o.map(stored -> stored::close);
    }

    /** Applies the size bypass and the admission rule to an access of an object of {@code size} bytes. */
    private boolean admit(CacheKey key, long size) {
        if (settings.bypassAboveBytes() > 0 && size > settings.bypassAboveBytes()) {
            tierCounters.bypassedAbove.increment();
            return false;
        }
        if (settings.admission() == Admission.SECOND_HIT && !secondHit.accessAndCheck(key)) {
            tierCounters.admissionsDeferred.increment();
            return false;
        }
        return true;
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        ensureOpen();
        ObjectWriter d = disk.begin(key, metadata);
        counters.writesBegun.increment();
        ObjectWriter m = null;
        long declared = metadata.length();
        boolean tooBig = settings.bypassAboveBytes() > 0 && declared > settings.bypassAboveBytes();
        if (tooBig) {
            tierCounters.bypassedAbove.increment();
        } else if (settings.admission() == Admission.ALWAYS || secondHit.accessAndCheck(key)) {
            try {
                m = memory.begin(key, metadata);
            } catch (IOException | RuntimeException e) {
                m = null;
            }
        } else {
            tierCounters.admissionsDeferred.increment();
        }
        return new TieredWriter(this, d, m, metadata);
    }

    /** Called once the disk committed: installs the memory copy, or drops a stale one. */
    void committed(CacheKey key, ObjectWriter memoryWriter, ObjectMetadata finalMetadata, long length) {
        counters.writesCommitted.increment();
        counters.bytesWritten.add(length);
        synchronized (stripeLock(key)) {
            bumpVersion(key);
            boolean installed = false;
            if (memoryWriter != null) {
                try {
                    memoryWriter.commit(finalMetadata);
                    installed = true;
                    tierCounters.writesToMemory.increment();
                } catch (IOException | RuntimeException e) {
                    memoryWriter.abort();
                }
            }
            if (!installed) {
                removeFromMemory(key);
            }
        }
    }

    @Override
    public boolean remove(CacheKey key) throws IOException {
        ensureOpen();
        boolean fromMemory;
        synchronized (stripeLock(key)) {
            bumpVersion(key);
            fromMemory = memory.remove(key);
        }
        boolean fromDisk = disk.remove(key);
        if (fromDisk || fromMemory) {
            counters.removals.increment();
        }
        return fromDisk || fromMemory;
    }

    @Override
    public boolean updateMetadata(CacheKey key, ObjectMetadata metadata) throws IOException {
        ensureOpen();
        boolean updated = disk.updateMetadata(key, metadata);
        synchronized (stripeLock(key)) {
            bumpVersion(key);
            if (updated) {
                memory.updateMetadata(key, metadata);
            } else {
                memory.remove(key);
            }
        }
        return updated;
    }

    @Override
    public StoreUsage usage() {
        return disk.usage();
    }

    @Override
    public StoreStats stats() {
        StoreStats d = disk.stats();
        StoreStats m = memory.stats();
        StoreUsage mu = memory.usage();
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("diskEngine", settings.diskEngine());
        extra.put("admit", settings.admission().settingValue());
        extra.put("bypassAboveBytes", settings.bypassAboveBytes());
        extra.put("bypassSequential", settings.bypassSequential());
        extra.put("readAheadBytesSetting", settings.readAheadBytes());
        extra.put("memoryHits", tierCounters.memoryHits.sum());
        extra.put("diskHits", tierCounters.diskHits.sum());
        extra.put("misses", tierCounters.misses.sum());
        extra.put("bypassedAbove", tierCounters.bypassedAbove.sum());
        extra.put("bypassedSequential", tierCounters.bypassedSequential.sum());
        extra.put("admissionsDeferred", tierCounters.admissionsDeferred.sum());
        extra.put("writesToMemory", tierCounters.writesToMemory.sum());
        extra.put("staleMemoryCopiesDropped", tierCounters.staleMemoryCopiesDropped.sum());
        extra.put("promotions", tierCounters.promotions.sum());
        extra.put("promotionsAborted", tierCounters.promotionsAborted.sum());
        extra.put("promotionsDropped", tierCounters.promotionsDropped.sum());
        extra.put("readAheadBytes", tierCounters.readAheadBytes.sum());
        extra.put("readAheadServedBytes", tierCounters.readAheadServedBytes.sum());
        extra.put("memoryCapacityBytes", mu.capacityBytes());
        extra.put("memoryUsedBytes", mu.usedBytes());
        extra.put("memoryObjects", mu.objectCount());
        extra.put("memoryEvictions", m.evictions());
        d.extra().forEach((k, v) -> extra.put("disk." + k, v));
        return new StoreStats(counters.lookups.sum(), counters.lookupHits.sum(), counters.writesBegun.sum(),
                counters.writesCommitted.sum(), d.writesAborted(), counters.bytesWritten.sum(),
                d.bytesRead() + m.bytesRead(), d.evictions(), d.evictedBytes(), counters.removals.sum(),
                d.corruptObjectsDropped(), extra);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        promoter.shutdown();
        readAheadPool.shutdown();
        try {
            promoter.awaitTermination(10, TimeUnit.SECONDS);
            readAheadPool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            memory.close();
        } finally {
            disk.close();
        }
    }

    // ---- promotion and read-ahead ----

    /** Copies the disk object into memory in the background, unless a newer write or removal intervenes. */
    void promote(CacheKey key, long version) {
        if (closed || !promoting.add(key)) {
            return;
        }
        try {
            promoter.execute(() -> {
                try {
                    copyToMemory(key, version);
                } finally {
                    promoting.remove(key);
                }
            });
        } catch (RejectedExecutionException e) {
            promoting.remove(key);
            tierCounters.promotionsDropped.increment();
        }
    }

    private void copyToMemory(CacheKey key, long version) {
        try {
            Optional<StoredObject> found = disk.lookup(key);
            if (found.isEmpty()) {
                tierCounters.promotionsAborted.increment();
                return;
            }
            try (StoredObject src = found.get(); ObjectWriter w = memory.begin(key, src.metadata())) {
                ByteBuffer buf = ByteBuffer.allocate(COPY_CHUNK);
                long length = src.availableLength();
                for (long pos = 0; pos < length; ) {
                    buf.clear();
                    int n = src.read(pos, buf);
                    if (n <= 0) {
                        throw new IOException("disk object '" + key + "' ended at " + pos + " while promoting it");
                    }
                    buf.flip();
                    w.write(buf);
                    pos += n;
                }
                synchronized (stripeLock(key)) {
                    if (versions.get(stripe(key)) != version) {
                        tierCounters.promotionsAborted.increment();
                        return;
                    }
                    w.commit(src.metadata().withLength(length));
                }
                tierCounters.promotions.increment();
            }
        } catch (IOException | RuntimeException e) {
            tierCounters.promotionsAborted.increment();
            LOG.log(System.Logger.Level.DEBUG, "promotion of ''{0}'' into memory failed: {1}", key, e);
        }
    }

    ReadAheadWindow newReadAhead(StoredObject source) {
        return new ReadAheadWindow(source, settings.readAheadBytes(), readAheadPool, tierCounters);
    }

    /** Waits until no promotion is queued or running (tests and benchmarks use this to settle). */
    void awaitPromotions() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((!promoting.isEmpty() || promoter.getActiveCount() > 0 || !promoter.getQueue().isEmpty())
                && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
    }

    private void removeFromMemory(CacheKey key) {
        try {
            memory.remove(key);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot drop the memory copy of ''{0}'': {1}", key, e);
        }
    }

    private int stripe(CacheKey key) {
        return (int) (key.hash64() & (STRIPES - 1));
    }

    private Object stripeLock(CacheKey key) {
        return stripeLocks[stripe(key)];
    }

    private long version(CacheKey key) {
        return versions.get(stripe(key));
    }

    private void bumpVersion(CacheKey key) {
        versions.incrementAndGet(stripe(key));
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("tiered store is closed");
        }
    }
}
