package org.edgelab.storage.lmdb;

import org.edgelab.storage.api.StoreCall;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.MetadataCodec;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageException;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoreCounters;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;
import org.edgelab.storage.eviction.EvictionPolicies;
import org.edgelab.storage.eviction.EvictionPolicy;
import org.edgelab.storage.spi.RecencyFile;
import org.edgelab.units.ByteSize;
import org.lmdbjava.ByteBufferProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Stat;
import org.lmdbjava.Txn;

/**
 * An {@link ObjectStore} on one LMDB environment with a metadata database and a chunk database
 * (see {@link Layout}). An in-memory index maps keys to committed bodies (with their decoded
 * metadata once known: at commit, or at the first lookup after a restart) and feeds the eviction
 * policy; a byte budget below the map size (map bytes estimated per value, see
 * {@link Layout#valueFootprint}) is enforced by evicting ahead of writes, and a full map is
 * handled by evicting and retrying in the writer thread. One {@link WriteBatcher} thread does all
 * writes; readers never wait for it, and no read transaction outlives the call that opened it:
 * reads copy out of the map in short pooled transactions, and views lend chunks whose pages stay
 * put while the reader pins the body (see {@link #pinnedChunk}).
 * Persistence comes from LMDB's copy-on-write commits: at open, {@link LmdbRecovery} drops records
 * that do not add up and deletes chunks without a committed record (a write cut short).
 *
 * <p>When each object was last read or written is kept on its {@link StoredEntry} and written to a recency file
 * ({@link RecencyFile}, {@value #RECENCY_FILE} beside LMDB's files) every {@code recency-interval} by a background
 * thread, and at close; at open the objects found go to the eviction policy least recently used first by that file
 * (those not in it, written after its last write, after them in id order), so a restarted full store evicts what was
 * used least recently before it stopped, not what was written first, which is the hot set warmed first (the restart
 * experiment refetched 29 % of its set at 1 MB that way, 2026-12-06). Without the file, or with a damaged one, the
 * order is the ids', that is the writes'.
 * Thread-safe: any method may be called from any thread.
 */
final class LmdbStore implements ObjectStore {

    private static final System.Logger LOG = System.getLogger(LmdbStore.class.getName());
    static final String MARKER_FILE = "edgelab-lmdb.marker";
    static final String DATA_FILE = "data.mdb";
    /** The recency file's name in the environment's directory, beside LMDB's files (see {@link RecencyFile}). */
    static final String RECENCY_FILE = "lmdb.recency";
    private static final int MAX_READERS = 1024;
    private static final long CLOSE_WAIT_MILLIS = 30_000;

    private final LmdbSettings settings;
    private final long budget;
    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> metaDb;
    private final Dbi<ByteBuffer> chunkDb;
    private final int pageSize;
    /** Body bytes per chunk of new objects (recovered objects keep the size they were written with). */
    private final int chunkSize;
    private final ReadTxnPool readers;
    private final WriteBatcher batcher;
    private final ChunkBufferPool buffers;
    private final ConcurrentHashMap<CacheKey, StoredEntry> index = new ConcurrentHashMap<>();
    /** Guards the policy and the decisions that evict. */
    private final Object policyLock = new Object();
    private final EvictionPolicy<StoredEntry> policy;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong nextId = new AtomicLong(1);
    private final StoreCounters counters = new StoreCounters();
    /** Chunks looked up for views and lent as map memory (no copy). */
    private final LongAdder viewChunksLent = new LongAdder();
    /** Chunks looked up for views and copied (values small enough to live in leaf pages). */
    private final LongAdder viewChunksCopied = new LongAdder();
    /** Objects found at open whose chunks were all checked at their first lookup. */
    private final LongAdder verifiedObjects = new LongAdder();
    private final Object closeLock = new Object();
    private volatile boolean closed;
    /** Test seam: runs in {@link #readChunks} before each chunk after the first; null outside tests. */
    private volatile Runnable beforeNextChunk;
    /** Chunks of writes cut short (no committed record) deleted when the store opened. */
    private volatile long orphanChunksDeletedAtOpen;
    /** Whether an object was used since the recency file was last written. */
    private volatile boolean recencyDirty;
    /** Serialises the recency file's writes (the background writer's and close's). */
    private final Object recencyLock = new Object();
    private final LongAdder recencyWrites = new LongAdder();
    /** Writes the recency file every recency-interval; null until the store is recovered, and with an interval of 0. */
    private volatile ScheduledExecutorService recencyWriter;
    /** Whether the index holds every object found at open: before that, a recency file written would lose times. */
    private volatile boolean recovered;
    /** Whether the background writer's last attempt failed and was logged; the recency writer's thread only. */
    private boolean recencyFailing;

    private LmdbStore(LmdbSettings settings, long budget, Env<ByteBuffer> env, Dbi<ByteBuffer> metaDb,
                      Dbi<ByteBuffer> chunkDb) {
        this.settings = settings;
        this.budget = budget;
        this.env = env;
        this.metaDb = metaDb;
        this.chunkDb = chunkDb;
        this.pageSize = env.stat().pageSize;
        this.readers = new ReadTxnPool(env, MAX_READERS - 32);
        this.chunkSize = Layout.payloadPerChunk(settings.chunkSize(), pageSize);
        this.buffers = new ChunkBufferPool(chunkSize + Layout.CHUNK_TRAILER_BYTES, 2 * settings.batchMax() + 16);
        this.policy = EvictionPolicies.create(settings.policy(), budget);
        long batchBytes = Math.max(settings.chunkSize(), settings.mapSize() / 16);
        WriteBatcher.SpaceMaker spaceMaker = new WriteBatcher.SpaceMaker() {
            @Override
            public boolean evictForMapFull(long bytes) {
                return LmdbStore.this.evictForMapFull(bytes);
            }

            @Override
            public boolean snapshotsHeld() {
                return readers.inUse() > 0;
            }
        };
        this.batcher = new WriteBatcher(env, settings.path(), new WriteBatcher.Tables(metaDb, chunkDb), spaceMaker,
                settings.batchMax(), batchBytes, "lmdb-writer-" + settings.path().getFileName());
    }

    /** Opens (creating if needed) the store described by {@code settings}, recovering what a crash left. */
    static LmdbStore open(LmdbSettings settings) throws IOException {
        return open(settings, settings.budget());
    }

    /** Opens with an explicit byte budget; tests use a budget above the map to meet MDB_MAP_FULL. */
    static LmdbStore open(LmdbSettings settings, long budget) throws IOException {
        Path dir = settings.path();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new StorageException("LMDB path " + dir + " is a file; give a directory (it is created if missing)");
        }
        Files.createDirectories(dir);
        Path marker = dir.resolve(MARKER_FILE);
        Path data = dir.resolve(DATA_FILE);
        if (Files.exists(marker) && !Files.exists(data)) {
            throw new StorageException("the LMDB data file " + data + " is missing although " + dir
                    + " held a store; restore it, or delete the directory to start empty");
        }
        if (Files.exists(data) && Files.size(data) > settings.mapSize()) {
            throw new StorageException("the LMDB data file " + data + " is " + ByteSize.format(Files.size(data))
                    + ", larger than map-size " + ByteSize.format(settings.mapSize()) + "; open it with a map-size of at least its size");
        }
        if (settings.capacity() > settings.budget()) {
            LOG.log(Level.WARNING, "capacity " + ByteSize.format(settings.capacity()) + " does not fit in map-size "
                    + ByteSize.format(settings.mapSize()) + " with LMDB's headroom; the byte budget is "
                    + ByteSize.format(settings.budget()));
        }
        Env<ByteBuffer> env = openEnv(settings);
        try {
            Dbi<ByteBuffer> meta = env.openDbi("meta", DbiFlags.MDB_CREATE);
            Dbi<ByteBuffer> chunks = env.openDbi("chunks", DbiFlags.MDB_CREATE);
            if (!Files.exists(marker)) {
                Files.writeString(marker, "EdgeLab LMDB store: data.mdb holds the objects; do not delete it alone.\n");
            }
            LmdbStore store = new LmdbStore(settings, budget, env, meta, chunks);
            try {
                store.recover();
                store.startRecencyWriter();
            } catch (IOException | RuntimeException e) {
                store.close();
                throw e;
            }
            return store;
        } catch (LmdbException e) {
            env.close();
            throw LmdbErrors.translate(e, "opening " + dir);
        } catch (IOException | RuntimeException e) {
            if (!env.isClosed()) {
                env.close();
            }
            throw e;
        }
    }

    private static Env<ByteBuffer> openEnv(LmdbSettings settings) throws StorageException {
        List<EnvFlags> flags = new ArrayList<>(List.of(EnvFlags.MDB_NOTLS));
        flags.addAll(List.of(settings.sync().flags()));
        if (!settings.readAhead()) {
            flags.add(EnvFlags.MDB_NORDAHEAD);
        }
        try {
            return Env.create(ByteBufferProxy.PROXY_OPTIMAL)
                    .setMapSize(settings.mapSize())
                    .setMaxDbs(2)
                    .setMaxReaders(MAX_READERS)
                    .open(settings.path().toFile(), flags.toArray(EnvFlags[]::new));
        } catch (LmdbException e) {
            throw LmdbErrors.translate(e, "opening " + settings.path());
        } catch (ExceptionInInitializerError | NoClassDefFoundError | IllegalStateException e) {
            throw new StorageException("lmdbjava could not start: run the JVM with "
                    + "--add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED ("
                    + e + ")", e);
        }
    }

    /** Rebuilds the index from what {@link LmdbRecovery} found, evicting down to the budget. */
    private void recover() throws StorageException {
        LmdbRecovery.Result r = new LmdbRecovery(env, metaDb, chunkDb, pageSize, settings.path(), this::released).recover();
        counters.corruptObjectsDropped.add(r.damagedDropped());
        orphanChunksDeletedAtOpen = r.orphanChunksDeleted();
        nextId.set(r.maxId() + 1);
        Map<Long, Long> lastUse = RecencyFile.read(settings.path(), RECENCY_FILE,
                "the objects found go to the eviction policy in id (write) order");
        if (lastUse.isEmpty() && !r.live().isEmpty() && !Files.exists(settings.path().resolve(RECENCY_FILE))) {
            LOG.log(Level.INFO, "no recency file " + RECENCY_FILE + " in " + settings.path() + ": the " + r.live().size()
                    + " objects found go to the eviction policy in id (write) order");
        }
        List<StoredEntry> leastRecentlyUsedFirst = byLastUse(r.live(), lastUse, System.currentTimeMillis());
        synchronized (policyLock) {
            for (StoredEntry e : leastRecentlyUsedFirst) {
                StoredEntry previous = index.put(e.key, e);
                if (previous != null) {
                    // Two hashed records for one key cannot happen; keep the newer id.
                    policy.onRemove(previous);
                    previous.markRemoved();
                }
                policy.onInsert(e, e.footprint());
                used.addAndGet(e.footprint());
            }
            while (used.get() > budget) {
                StoredEntry victim = policy.evict();
                if (victim == null) {
                    break;
                }
                evictLocked(victim);
            }
        }
    }

    /**
     * Orders the objects found at open ({@code byId}, in id order) least recently used first, as the eviction policy
     * takes them: those whose key hash {@code lastUse} holds by that time (ties in id order), then the rest, written
     * after the recency file's last write, in id order. Sets each one's last use: its time in the file, and for the
     * rest {@code now} (or the file's latest time if later), so that the next recency file keeps them after.
     */
    static List<StoredEntry> byLastUse(List<StoredEntry> byId, Map<Long, Long> lastUse, long now) {
        List<StoredEntry> known = new ArrayList<>(byId.size());
        List<StoredEntry> rest = new ArrayList<>();
        long latest = now;
        for (StoredEntry e : byId) {
            Long t = lastUse.isEmpty() ? null : lastUse.get(e.key.hash64());
            if (t == null) {
                rest.add(e);
            } else {
                e.lastUsedMillis(t);
                latest = Math.max(latest, t);
                known.add(e);
            }
        }
        known.sort(Comparator.comparingLong(StoredEntry::lastUsedMillis)); // stable: ties keep id order
        for (StoredEntry e : rest) {
            e.lastUsedMillis(latest);
        }
        known.addAll(rest);
        return known;
    }

    /** Starts writing the recency file every recency-interval, once the index holds every object found at open. */
    private void startRecencyWriter() {
        long every = settings.recencyIntervalMillis();
        if (every > 0) {
            ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "lmdb-recency-" + settings.path().getFileName());
                t.setDaemon(true);
                return t;
            });
            writer.scheduleWithFixedDelay(this::writeRecencyInBackground, every, every, TimeUnit.MILLISECONDS);
            recencyWriter = writer;
        }
        recovered = true;
    }

    /** Stops the background recency writer, waiting for a write in progress; close runs it before the env closes. */
    private void stopRecencyWriter() {
        ScheduledExecutorService writer = recencyWriter;
        if (writer == null) {
            return;
        }
        writer.shutdown();
        try {
            if (!writer.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.log(Level.WARNING, "the recency writer of " + settings.path() + " did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Records a use of {@code e} now, for the recency file: a volatile write, and one more the first time. */
    private void used(StoredEntry e) {
        e.lastUsedMillis(System.currentTimeMillis());
        if (!recencyDirty) {
            recencyDirty = true;
        }
    }

    /** The background writer's task: a failure is logged once until a write succeeds again, and never thrown. */
    private void writeRecencyInBackground() {
        if (closed) {
            return;
        }
        try {
            if (writeRecency() && recencyFailing) {
                recencyFailing = false;
                LOG.log(Level.INFO, "the recency file of " + settings.path() + " is written again");
            }
        } catch (IOException | RuntimeException e) {
            if (!recencyFailing) {
                recencyFailing = true;
                LOG.log(Level.WARNING, "cannot write the recency file of " + settings.path() + " (tried again every "
                        + settings.recencyIntervalMillis() + " ms, not logged again until it works; nothing stored is"
                        + " lost, a restart orders its objects by the last file written, or by id without one): " + e);
            }
        }
    }

    /**
     * Writes when each indexed object was last used to the recency file, if any was used since the last write; returns
     * whether it wrote. Reads the index without a lock (a use racing the copy is written the next time). Blocks on the
     * file system.
     */
    boolean writeRecency() throws IOException {
        synchronized (recencyLock) {
            if (!recencyDirty) {
                return false;
            }
            recencyDirty = false;
            long[] hashes = new long[index.size() + 16];
            long[] lastUsed = new long[hashes.length];
            int n = 0;
            for (StoredEntry e : index.values()) {
                if (n == hashes.length) {
                    hashes = Arrays.copyOf(hashes, 2 * n);
                    lastUsed = Arrays.copyOf(lastUsed, 2 * n);
                }
                hashes[n] = e.key.hash64();
                lastUsed[n] = e.lastUsedMillis();
                n++;
            }
            try {
                RecencyFile.write(settings.path(), RECENCY_FILE, hashes, lastUsed, n);
            } catch (IOException | RuntimeException e) {
                recencyDirty = true; // try again next time
                throw e;
            }
            recencyWrites.increment();
            return true;
        }
    }

    @Override
    public String engineName() {
        return LmdbEngine.NAME;
    }

    /**
     * Everything but file slices (there are none): writes, commits, removals and metadata updates
     * wait for the writer thread, and reads and views touch the memory map, which faults pages in
     * from disk when they are not resident.
     */
    @Override
    public Set<StoreCall> blockingCalls() {
        return StoreCall.allExcept(StoreCall.FILE_SLICE);
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        Objects.requireNonNull(key, "key");
        requireOpen();
        counters.lookups.increment();
        for (int attempt = 0; attempt < 10_000; attempt++) {
            StoredEntry e = index.get(key);
            if (e == null) {
                return Optional.empty();
            }
            if (!e.tryPin()) {
                continue;
            }
            ObjectMetadata metadata = e.metadata();
            if (metadata == null) {
                try {
                    metadata = readMetadata(e);
                } catch (CorruptObjectException ex) {
                    e.unpin();
                    return Optional.empty(); // its record is damaged: dropped and counted, a miss
                } catch (IOException | RuntimeException ex) {
                    e.unpin();
                    throw ex;
                }
                if (metadata != null) {
                    metadata = e.metadataIfAbsent(metadata);
                }
            }
            if (metadata == null) {
                e.unpin();
                // The record was just replaced and the index is about to follow: look again.
                Thread.onSpinWait();
                continue;
            }
            if (e.needsVerification() && settings.verify() != VerifyMode.NEVER) {
                // First lookup since the store opened: check every chunk before a byte leaves, so
                // that damage makes this lookup a miss rather than a reply cut short or wrong.
                try {
                    verifyAll(e);
                } catch (IOException | RuntimeException ex) {
                    e.unpin();
                    if (ex instanceof CorruptObjectException) {
                        return Optional.empty(); // dropped and counted: the caller refetches it
                    }
                    throw ex;
                }
            }
            synchronized (policyLock) {
                policy.onAccess(e);
            }
            used(e);
            counters.lookupHits.increment();
            return Optional.of(new LmdbStoredObject(this, e, metadata));
        }
        return Optional.empty();
    }

    /** Reads the metadata of a pinned entry, or null when the record now names another body. */
    private ObjectMetadata readMetadata(StoredEntry e) throws IOException {
        ReadTxnPool.Slot slot = readers.acquire();
        try {
            ByteBuffer v = metaDb.get(slot.txn, slot.metaKey(Layout.metaKey(e.keyBytes)));
            if (v == null) {
                return null;
            }
            Layout.MetaRecord r = Layout.decodeMeta(v, false);
            if (r.id() != e.id || !Layout.belongsTo(r, e.keyBytes)) {
                return null;
            }
            return r.metadata();
        } catch (CorruptObjectException ex) {
            dropCorrupt(e, ex.getMessage());
            throw ex;
        } catch (LmdbException ex) {
            throw LmdbErrors.translate(ex, "looking up '" + e.key + "'");
        } finally {
            readers.release(slot);
        }
    }

    /** Checks every chunk of a pinned, committed entry in one read transaction; drops it at the first bad one. */
    private void verifyAll(StoredEntry e) throws IOException {
        ReadTxnPool.Slot slot = readers.acquire();
        try {
            for (int chunk = 0; chunk < e.chunkCount(); chunk++) {
                ByteBuffer v = chunkDb.get(slot.txn, Layout.chunkKey(slot.chunkKey, e.id, chunk));
                checkChunk(e, chunk, v);
            }
        } catch (LmdbException ex) {
            throw LmdbErrors.translate(ex, "verifying '" + e.key + "'");
        } finally {
            readers.release(slot);
        }
        e.verified();
        verifiedObjects.increment();
    }

    /**
     * Returns the body of a stored chunk value of the committed entry {@code e} (without its
     * checksum), after checking it is there, of the right size and, where {@code settings.verify()}
     * asks for it, intact; otherwise drops the entry and throws.
     */
    private ByteBuffer checkChunk(StoredEntry e, int chunk, ByteBuffer v) throws CorruptObjectException {
        if (v == null) {
            throw dropCorrupt(e, "chunk " + chunk + " is missing");
        }
        long body = Math.min(e.chunkSize, e.readableLength() - (long) chunk * e.chunkSize);
        if (v.remaining() != Layout.chunkValueBytes(body, e.checksummed)) {
            throw dropCorrupt(e, "chunk " + chunk + " holds " + v.remaining() + " bytes, expected "
                    + Layout.chunkValueBytes(body, e.checksummed));
        }
        if (e.checksummed && (e.needsVerification() || settings.verify() == VerifyMode.ALWAYS)
                && settings.verify() != VerifyMode.NEVER && !Layout.chunkIntact(e.id, chunk, v)) {
            throw dropCorrupt(e, "chunk " + chunk + " fails its CRC32C");
        }
        return v.duplicate().limit(v.position() + (int) body);
    }

    /**
     * Copies the {@code want} readable bytes of {@code e} at {@code position} into {@code dst} in
     * short read transactions (chunks of a write in progress come from its buffers).
     *
     * <p>A chunk of a write in progress leaves its buffer only once its batch has committed, so a
     * transaction begun after the buffer was found gone sees the chunk. One begun earlier, for an
     * earlier chunk of this read, may not: the writer thread may have committed and forgotten the
     * chunk in between. Such a miss is read again in a new transaction before it means anything
     * (an aborted write, or damage), or a follower would take a healthy write for an aborted one.
     */
    int readChunks(StoredEntry e, long position, ByteBuffer dst, int want) throws IOException {
        long available = e.readableLength();
        int copied = 0;
        ReadTxnPool.Slot slot = null;
        try {
            while (copied < want) {
                long pos = position + copied;
                int chunk = (int) (pos / e.chunkSize);
                int offset = (int) (pos % e.chunkSize);
                if (copied > 0) {
                    Runnable seam = beforeNextChunk;
                    if (seam != null) {
                        seam.run();
                    }
                }
                ByteBuffer v = e.unflushedChunk(chunk);
                int base = 0;
                if (v == null) {
                    boolean olderThanTheCheck = slot != null;
                    if (slot == null) {
                        slot = readers.acquire();
                    }
                    v = chunkDb.get(slot.txn, Layout.chunkKey(slot.chunkKey, e.id, chunk));
                    if (v == null && olderThanTheCheck) {
                        readers.release(slot);
                        slot = null;
                        slot = readers.acquire();
                        v = chunkDb.get(slot.txn, Layout.chunkKey(slot.chunkKey, e.id, chunk));
                    }
                    if (!e.isComplete()) {
                        if (v == null) {
                            // neither committed nor buffered: the batch holding it failed, the write is failing
                            throw new WriteAbortedException(e.key);
                        }
                    } else {
                        v = checkChunk(e, chunk, v);
                    }
                    base = v.position();
                }
                // Unflushed buffers are read only below readableLength, which the writer never rewrites.
                int n = (int) Math.min(want - copied, Math.min(e.chunkSize - offset, available - pos));
                dst.put(dst.position(), v, base + offset, n);
                dst.position(dst.position() + n);
                copied += n;
            }
        } catch (LmdbException ex) {
            throw LmdbErrors.translate(ex, "reading '" + e.key + "'");
        } finally {
            if (slot != null) {
                readers.release(slot);
            }
        }
        counters.bytesRead.add(copied);
        return copied;
    }

    /**
     * Returns chunk {@code chunk} of the committed body {@code e}, which the caller keeps pinned,
     * as a read-only buffer that stays valid and unchanged while the pin is held, or null if the
     * chunk is missing. The read transaction ends before this returns: a chunk on overflow pages
     * (every full chunk) is lent as map memory, since LMDB frees those pages only when the chunk
     * is deleted and this engine deletes a body's chunks only after its last reader unpinned it;
     * a value small enough to live in a leaf page (at most an object's last chunk, under half a
     * page), which later writes may copy and free, is copied onto the heap instead.
     */
    ByteBuffer pinnedChunk(StoredEntry e, int chunk) {
        ReadTxnPool.Slot slot = readers.acquire();
        try {
            ByteBuffer v = chunkDb.get(slot.txn, Layout.chunkKey(slot.chunkKey, e.id, chunk));
            boolean lent = v != null && Layout.onOverflowPages(v.remaining(), pageSize);
            ByteBuffer body = checkChunk(e, chunk, v);
            if (lent) {
                viewChunksLent.increment();
                return body.slice().asReadOnlyBuffer();
            }
            ByteBuffer copy = ByteBuffer.allocate(body.remaining());
            copy.put(body).flip();
            viewChunksCopied.increment();
            return copy.asReadOnlyBuffer();
        } catch (CorruptObjectException ex) {
            return null; // dropped; read() reports the damage to the caller
        } catch (LmdbException ex) {
            LOG.log(Level.WARNING, "view of '" + e.key + "' failed: " + ex);
            return null;
        } finally {
            readers.release(slot);
        }
    }

    private CorruptObjectException dropCorrupt(StoredEntry e, String why) {
        synchronized (policyLock) {
            if (index.remove(e.key, e)) {
                LOG.log(Level.WARNING, "dropping '" + e.key + "' (object id " + e.id + "): " + why);
                policy.onRemove(e);
                counters.corruptObjectsDropped.increment();
                batcher.submitDeferred(new Drop(e, true, false, null));
                e.markRemoved();
            }
        }
        return new CorruptObjectException("'" + e.key + "' is damaged in the LMDB store: " + why);
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(metadata, "metadata");
        requireOpen();
        byte[] keyBytes = key.toBytes();
        StoredEntry entry = new StoredEntry(key, keyBytes, nextId.getAndIncrement(), chunkSize, this::released);
        LmdbObjectWriter writer = new LmdbObjectWriter(this, entry, metadata);
        if (metadata.length() != ObjectMetadata.UNKNOWN_LENGTH) {
            writer.reserveUpFront(Layout.chunksFootprint(metadata.length(), chunkSize, pageSize, true)
                    + Layout.valueFootprint(Layout.metaKey(keyBytes).length,
                            64 + keyBytes.length + MetadataCodec.encodedLength(metadata), pageSize));
        }
        counters.writesBegun.increment();
        return writer;
    }

    @Override
    public boolean remove(CacheKey key) throws IOException {
        Objects.requireNonNull(key, "key");
        requireOpen();
        CompletableFuture<Void> done = new CompletableFuture<>();
        synchronized (policyLock) {
            StoredEntry e = index.remove(key);
            if (e == null) {
                return false;
            }
            policy.onRemove(e);
            counters.removals.increment();
            batcher.submitDeferred(new Drop(e, true, false, done));
            e.markRemoved();
        }
        await(done, "removing '" + key + "'");
        return true;
    }

    @Override
    public boolean updateMetadata(CacheKey key, ObjectMetadata metadata) throws IOException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(metadata, "metadata");
        requireOpen();
        for (int attempt = 0; attempt < 3; attempt++) {
            StoredEntry e = index.get(key);
            if (e == null) {
                return false;
            }
            if (metadata.length() != e.readableLength()) {
                throw new IllegalArgumentException("updateMetadata of '" + key + "' with length " + metadata.length()
                        + " but the stored object has " + e.readableLength() + " bytes");
            }
            CompletableFuture<Boolean> done = new CompletableFuture<>();
            batcher.submit(new UpdateMeta(e, metadata, done));
            Boolean updated = await(done, "updating the metadata of '" + key + "'");
            if (updated) {
                return true;
            }
        }
        return index.containsKey(key);
    }

    private static <T> T await(CompletableFuture<T> f, String what) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while " + what);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new StorageException(what + " failed: " + e.getCause(), e.getCause());
        }
    }

    @Override
    public StoreUsage usage() {
        return new StoreUsage(budget, used.get(), index.size());
    }

    @Override
    public StoreStats stats() {
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("mapSizeBytes", settings.mapSize());
        extra.put("readAhead", settings.readAhead() ? "kernel" : "off (MDB_NORDAHEAD: madvise(MADV_RANDOM) on the map)");
        extra.put("chunkPayloadBytes", chunkSize);
        extra.put("pageSizeBytes", pageSize);
        extra.put("writeBatches", batcher.batches());
        extra.put("mapFullRetries", batcher.mapFullRetries());
        extra.put("fileSystemFullRefusals", batcher.fileSystemFullRefusals());
        extra.put("readTxnsInUse", readers.inUse());
        extra.put("viewLeases", readers.mapLeases());
        extra.put("viewChunksLent", viewChunksLent.sum());
        extra.put("viewChunksCopied", viewChunksCopied.sum());
        extra.put("verify", settings.verify().name().toLowerCase(Locale.ROOT));
        extra.put("objectsVerifiedAtFirstLookup", verifiedObjects.sum());
        extra.put("orphanChunksDeletedAtOpen", orphanChunksDeletedAtOpen);
        extra.put("syncMode", settings.sync().name().toLowerCase(Locale.ROOT));
        extra.put("recencyIntervalMillis", settings.recencyIntervalMillis());
        extra.put("recencyWrites", recencyWrites.sum());
        if (!closed) {
            try {
                ReadTxnPool.Slot slot = readers.acquire();
                try {
                    extra.put("lmdbPagesInUseBytes", pagesInUse(slot.txn) * pageSize);
                } finally {
                    readers.release(slot);
                }
                extra.put("mapHighWaterBytes", (env.info().lastPageNumber + 1) * pageSize);
            } catch (RuntimeException e) {
                extra.put("lmdbStatError", e.toString());
            }
        }
        return counters.snapshot(extra);
    }

    private long pagesInUse(Txn<ByteBuffer> txn) {
        long pages = 0;
        for (Dbi<ByteBuffer> d : List.of(metaDb, chunkDb)) {
            Stat s = d.stat(txn);
            pages += s.branchPages + s.leafPages + s.overflowPages;
        }
        return pages;
    }

    @Override
    public void close() throws IOException {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        stopRecencyWriter();
        batcher.close();
        if (recovered) {
            try {
                writeRecency();
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "cannot write the recency file of " + settings.path() + " at close (nothing"
                        + " stored is lost; a restart orders its objects by the last file written, or by id without"
                        + " one): " + e);
            }
        }
        boolean drained;
        try {
            drained = readers.closeAll(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for LMDB readers to finish");
        }
        if (drained) {
            env.close();
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the LMDB store at " + settings.path() + " is closed");
        }
    }

    // ---- budget and eviction -------------------------------------------------------------

    /** Takes {@code bytes} from the budget, evicting as needed; fails when nothing more can go. */
    void reserve(long bytes) throws StorageFullException {
        if (bytes > budget) {
            throw new StorageFullException("an object needing " + ByteSize.format(bytes) + " of the LMDB map cannot fit "
                    + "in a byte budget of " + ByteSize.format(budget));
        }
        synchronized (policyLock) {
            while (used.get() + bytes > budget) {
                StoredEntry victim = policy.evict();
                if (victim == null) {
                    throw new StorageFullException("cannot make room for " + ByteSize.format(bytes) + ": "
                            + ByteSize.format(used.get()) + " of " + ByteSize.format(budget)
                            + " are held by writes in progress or by readers of removed objects");
                }
                evictLocked(victim);
            }
            used.addAndGet(bytes);
        }
    }

    /** Gives back budget taken by {@link #reserve} and not used. */
    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    private void evictLocked(StoredEntry victim) {
        if (index.remove(victim.key, victim)) {
            counters.evictions.increment();
            counters.evictedBytes.add(victim.readableLength());
            batcher.submitDeferred(new Drop(victim, true, false, null));
        }
        victim.markRemoved();
    }

    /** Called by the writer thread when LMDB reports a full map. */
    private boolean evictForMapFull(long bytes) {
        long freed = 0;
        synchronized (policyLock) {
            while (freed < bytes) {
                StoredEntry victim = policy.evict();
                if (victim == null) {
                    break;
                }
                evictLocked(victim);
                freed += victim.footprint();
            }
        }
        if (freed > 0) {
            LOG.log(Level.INFO, "LMDB map full: evicted " + ByteSize.format(freed) + " to retry a write batch");
        }
        return freed > 0;
    }

    /** A removed body's last reader left: give back its budget and delete its chunks. */
    private void released(StoredEntry e) {
        used.addAndGet(-e.footprint());
        batcher.submitDeferred(new Drop(e, false, true, null));
    }

    /**
     * A write was aborted: gives back the budget it reserved beyond what it used, and releases the
     * rest with its chunks once no follower reads them (chunks still queued are never written).
     */
    void writeAborted(StoredEntry e, long reserved, long charged) {
        e.abort();
        used.addAndGet(charged - reserved);
        e.addFootprint(charged);
        counters.writesAborted.increment();
        e.markRemoved();
    }

    /** A write committed (on the writer thread): publish it, replacing any earlier object. */
    void writeCommitted(StoredEntry e, long length) {
        e.complete(length);
        used(e);
        synchronized (policyLock) {
            StoredEntry previous = index.put(e.key, e);
            if (previous != null) {
                policy.onRemove(previous);
                previous.markRemoved();
            }
            policy.onInsert(e, e.footprint());
        }
        counters.writesCommitted.increment();
    }

    int pageSize() {
        return pageSize;
    }

    /** Test seam: {@code r} runs inside every multi-chunk read, between chunks (null: none). */
    void beforeNextChunk(Runnable r) {
        beforeNextChunk = r;
    }

    ReadTxnPool readers() {
        return readers;
    }

    ChunkBufferPool buffers() {
        return buffers;
    }

    WriteBatcher batcher() {
        return batcher;
    }

    StoreCounters counters() {
        return counters;
    }

    // ---- writer-thread operations --------------------------------------------------------

    /** Deletes a body's record (if it still names this body) and/or its chunks. */
    private static final class Drop implements WriteBatcher.Op {
        private final StoredEntry entry;
        private final boolean record;
        private final boolean chunks;
        private final CompletableFuture<Void> done;

        Drop(StoredEntry entry, boolean record, boolean chunks, CompletableFuture<Void> done) {
            this.entry = entry;
            this.record = record;
            this.chunks = chunks;
            this.done = done;
        }

        @Override
        public long addedBytes() {
            return 0;
        }

        @Override
        public boolean awaited() {
            return done != null;
        }

        @Override
        public void apply(Txn<ByteBuffer> txn, WriteBatcher.Tables t) {
            if (record) {
                ByteBuffer k = t.metaKey(Layout.metaKey(entry.keyBytes));
                ByteBuffer v = t.meta.get(txn, k);
                if (v != null && v.getLong(v.position() + 1) == entry.id) {
                    t.meta.delete(txn, k);
                }
            }
            if (chunks) {
                for (int i = 0; i < entry.chunkCount(); i++) {
                    t.chunks.delete(txn, t.chunkKey(entry.id, i));
                }
            }
        }

        @Override
        public void committed() {
            if (done != null) {
                done.complete(null);
            }
        }

        @Override
        public void failed(StorageException e) {
            if (done != null) {
                done.completeExceptionally(e);
            }
        }
    }

    /** Rewrites a committed object's record with new metadata, if the record still names it. */
    private static final class UpdateMeta implements WriteBatcher.Op {
        private final StoredEntry entry;
        private final ObjectMetadata metadata;
        private final CompletableFuture<Boolean> done;
        private boolean updated;

        UpdateMeta(StoredEntry entry, ObjectMetadata metadata, CompletableFuture<Boolean> done) {
            this.entry = entry;
            this.metadata = metadata;
            this.done = done;
        }

        @Override
        public long addedBytes() {
            return 64 + MetadataCodec.encodedLength(metadata);
        }

        @Override
        public void apply(Txn<ByteBuffer> txn, WriteBatcher.Tables t) {
            updated = false;
            byte[] metaKey = Layout.metaKey(entry.keyBytes);
            ByteBuffer k = t.metaKey(metaKey);
            ByteBuffer v = t.meta.get(txn, k);
            if (v != null && v.getLong(v.position() + 1) == entry.id) {
                t.meta.put(txn, t.metaKey(metaKey), Layout.encodeMeta(entry.id, entry.readableLength(), entry.chunkSize,
                        entry.keyBytes, metaKey, metadata, entry.checksummed));
                updated = true;
            }
        }

        @Override
        public void committed() {
            if (updated) {
                entry.metadata(metadata.withLength(entry.readableLength()));
            }
            done.complete(updated);
        }

        @Override
        public void failed(StorageException e) {
            done.completeExceptionally(e);
        }
    }
}
