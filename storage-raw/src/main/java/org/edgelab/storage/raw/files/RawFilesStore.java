package org.edgelab.storage.raw.files;

import org.edgelab.storage.api.StoreCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageFullException;
import org.edgelab.storage.api.StoreCounters;
import org.edgelab.storage.api.StoreStats;
import org.edgelab.storage.api.StoreUsage;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.raw.io.PageIn;
import org.edgelab.storage.raw.io.ReadAhead;
import org.edgelab.storage.eviction.EvictionPolicies;
import org.edgelab.storage.eviction.EvictionPolicy;
import org.edgelab.storage.spi.FileSystemErrors;
import org.edgelab.storage.spi.RecencyFile;
import org.edgelab.storage.tier.PinnableStore;

/**
 * The {@code raw-files} store: one file per object under hashed directories (see
 * {@link FileLayout}), each a checksummed header and the body (see {@link ObjectFileHeader}).
 *
 * <p>A write goes to a temporary file beside its final place and is renamed into place on commit,
 * so an object is visible whole or not at all; with {@code sync=data|full} the file (and
 * directory) are synced as {@link SyncMode} says. The index lives in memory and is rebuilt at
 * open by scanning the headers in parallel in the background; leftover temporary files and
 * damaged files are deleted then. Lookups are served from the moment the store opens: until the
 * scan is done, a key missing from the index is looked for where the layout puts its file.
 * Writes, removals and {@link #usage()} wait for the scan. A body is verified against its CRC32C once per file and process: on commit (the
 * writer checksummed what it wrote) or on the first lookup after a restart, which reads the whole
 * body once; afterwards reads, and the zero-copy {@link StoredObject#fileSlice} path, serve the
 * file without re-checking (a trade-off: bit rot after that verification is not detected until
 * the next restart). A corrupt, truncated or misplaced file is deleted and never served.
 *
 * <p>When each object was last read or written is kept in memory and written to a recency file every
 * {@code recency-interval} and at close ({@link RecencyFile}, {@value #RECENCY_FILE} in the root directory); the index
 * rebuilt at open gives the eviction policy its objects in that order, so a restarted store evicts what was used least
 * recently before it stopped, not what was written first (which, once the store is full, was the hot set warmed first).
 *
 * <p>The byte budget counts whole files (header and body) plus space reserved by writes in
 * progress plus files unlinked while readers still hold them. Eviction follows the named
 * {@link EvictionPolicy}, skipping objects that readers (or {@link #pin pins}) hold. A second process opening the same directory fails (a lock file).
 *
 * <p>Thread-safe, with two locks. The store's lock orders writers' reservations, evictions' unlinks, publishes'
 * renames into place and the deletes of damaged files, and is held across those file-system calls, so that the
 * directory matches the index for every path: one key's versions share one path, and an old version is never
 * unlinked after a newer one was renamed onto it. The lookup lock guards the index, the eviction policy, the budgets,
 * each entry's readers, unlinked flag and last use, and is never held across I/O or a file-system call; whoever takes
 * both takes the store's lock first. A lookup, a pin, a reader's release, {@link #usage()} and {@link #stats()} take
 * only the lookup lock: a lookup counts itself a reader of the indexed entry under it, then opens and checks the file
 * with no lock held, so a hit never waits for an unlink or a rename, which the kernel may keep for hundreds of
 * milliseconds when it throttles a busy ext4 journal. An eviction or removal forgets its victims under the lookup lock,
 * then unlinks their files under the store's lock alone; a publish renames under the store's lock alone, then indexes
 * the new version under the lookup lock. A lookup that opened a path just after a newer version was renamed onto it
 * finds a header that does not match its entry; dropping a damaged file takes the store's lock, so it waits for that
 * publish to end, finds the entry replaced, deletes nothing, and the lookup tries again. Body bytes are written and
 * read outside both locks.
 */
public final class RawFilesStore implements ObjectStore, PinnableStore {

    private static final System.Logger LOG = System.getLogger(RawFilesStore.class.getName());
    private static final String MARKER = "raw-files.properties";
    private static final String LOCK_FILE = "raw-files.lock";
    /** How often the recency file is written by default: a crash loses at most this much of the order of use. */
    public static final long DEFAULT_RECENCY_INTERVAL_MILLIS = 10_000;
    /** The recency file's name in the store's root directory (the index scan reads only the hashed directories). */
    static final String RECENCY_FILE = "raw-files.recency";
    /** How many times a lookup tries when the entry it found was replaced or removed while it opened the file. */
    private static final int LOOKUP_ATTEMPTS = 3;

    private final FileLayout layout;
    private final long capacity;
    private final String policyName;
    private final SyncMode syncMode;
    private final ReadAhead readAhead;
    /** Unlinks and renames into place, made with {@link #lock} held; they may block. */
    private final FileOps fileOps;
    /**
     * The store's lock: orders writers' reservations, evictions' unlinks, publishes' renames, in-place header rewrites
     * and the deletes of damaged files, so the directory matches the index for every path. Held across file-system calls; taken before
     * {@link #lookupLock} by whoever takes both.
     */
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * Guards the index, the policy, the budgets, each entry's readers, unlinked flag and last use, writers'
     * reservations, {@link #recencyDirty} and {@link #scanMerged}. Never held across I/O or a file-system call.
     */
    private final ReentrantLock lookupLock = new ReentrantLock();
    /** Guarded by lookupLock. */
    private final Map<CacheKey, IndexEntry> index = new HashMap<>();
    /** Guarded by lookupLock. */
    private final EvictionPolicy<CacheKey> policy;
    private final Set<FileObjectWriter> writers = ConcurrentHashMap.newKeySet();
    private final Set<Path> knownDirectories = ConcurrentHashMap.newKeySet();
    private final StoreCounters counters = new StoreCounters();
    private final LongAdder verifications = new LongAdder();
    private final LongAdder verifiedBytes = new LongAdder();
    private final AtomicLong nonce = new AtomicLong(ThreadLocalRandom.current().nextLong() & 0x7fffffffffffL);
    private final FileChannel lockChannel;
    private final FileLock dirLock;
    private final Thread scanner;
    private final CountDownLatch indexReady = new CountDownLatch(1);
    private volatile IndexRebuilder.Result rebuilt;
    private volatile Throwable scanFailure;
    private volatile long rebuildMillis = -1;
    private final LongAdder probedAtOpen = new LongAdder();
    private final long recencyIntervalMillis;
    /** Writes the recency file every recency-interval; null when it is written at close only. */
    private final java.util.concurrent.ScheduledExecutorService recencyWriter;
    private final LongAdder recencyWrites = new LongAdder();
    /** Whether an object was used since the recency file was last written; guarded by lookupLock. */
    private boolean recencyDirty;
    /** Whether the scan at open merged its files into the index (probes index nothing after); guarded by lookupLock. */
    private boolean scanMerged;
    private final LongAdder fileSystemFull = new LongAdder();
    /** Bytes of indexed files; guarded by lookupLock. */
    private long committedBytes;
    /** Bytes reserved by writes in progress; guarded by lookupLock. */
    private long reservedBytes;
    /** Bytes of files unlinked while readers still hold them; guarded by lookupLock. */
    private long pinnedBytes;
    private volatile boolean closed;

    private RawFilesStore(FileLayout layout, long capacity, String policyName, SyncMode syncMode, ReadAhead readAhead,
                          long recencyIntervalMillis, FileOps fileOps) throws IOException {
        this.layout = layout;
        this.fileOps = fileOps;
        this.recencyIntervalMillis = recencyIntervalMillis;
        this.readAhead = readAhead;
        this.capacity = capacity;
        this.policyName = policyName;
        this.syncMode = syncMode;
        this.policy = EvictionPolicies.create(policyName, capacity);
        Files.createDirectories(layout.root());
        this.lockChannel = FileChannel.open(layout.root().resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock acquired;
        try {
            acquired = lockChannel.tryLock();
        } catch (OverlappingFileLockException e) {
            acquired = null;
        }
        if (acquired == null) {
            lockChannel.close();
            throw new IOException("raw-files directory " + layout.root() + " is already open in another store");
        }
        this.dirLock = acquired;
        try {
            checkMarker();
        } catch (IOException | RuntimeException e) {
            dirLock.release();
            lockChannel.close();
            throw e;
        }
        this.scanner = new Thread(this::rebuildIndex, "raw-files-scan " + layout.root());
        scanner.setDaemon(true);
        scanner.start();
        if (recencyIntervalMillis > 0) {
            recencyWriter = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "raw-files-recency " + layout.root());
                t.setDaemon(true);
                return t;
            });
            recencyWriter.scheduleWithFixedDelay(this::writeRecencyInBackground, recencyIntervalMillis,
                    recencyIntervalMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } else {
            recencyWriter = null;
        }
    }

    /**
     * Scans the directories and merges what it finds into the index (entries that lookups probed
     * meanwhile are kept), then evicts down to the capacity and lets writes proceed.
     */
    private void rebuildIndex() {
        long start = System.nanoTime();
        try {
            IndexRebuilder.Result result = new IndexRebuilder(layout)
                    .scan(Math.max(2, Math.min(8, 2 * Runtime.getRuntime().availableProcessors())));
            Map<Long, Long> recency = RecencyFile.read(layout.root(), RECENCY_FILE,
                    "the rebuilt index orders objects by when their files were written");
            // Least recently used first: the policy takes each as the most recent so far. A file written after the
            // recency file was (or not in it) counts as used when it was written.
            long[] lastUsed = new long[result.found().size()];
            Integer[] order = new Integer[lastUsed.length];
            for (int i = 0; i < lastUsed.length; i++) {
                IndexRebuilder.Found f = result.found().get(i);
                lastUsed[i] = Math.max(f.modifiedMillis(), recency.getOrDefault(f.header().key().hash64(), 0L));
                order[i] = i;
            }
            java.util.Arrays.sort(order, java.util.Comparator.comparingLong(i -> lastUsed[i]));
            lock.lock();
            try {
                lookupLock.lock();
                try {
                    for (int i : order) {
                        IndexRebuilder.Found f = result.found().get(i);
                        indexFound(f.header(), f.path(), lastUsed[i]);
                    }
                    scanMerged = true;
                } finally {
                    lookupLock.unlock();
                }
                reserveRoom(0, null); // evicts down to the capacity
            } finally {
                lock.unlock();
            }
            rebuilt = result;
        } catch (IOException | RuntimeException e) {
            scanFailure = e;
            LOG.log(System.Logger.Level.ERROR, "cannot rebuild the index of raw-files " + layout.root(), e);
        } finally {
            rebuildMillis = (System.nanoTime() - start) / 1_000_000;
            indexReady.countDown();
        }
    }

    /**
     * Adds a file found on disk, last used at {@code lastUsedMillis}, to the index unless the key is indexed already;
     * under lookupLock.
     */
    private IndexEntry indexFound(ObjectFileHeader h, Path path, long lastUsedMillis) {
        IndexEntry existing = index.get(h.key());
        if (existing != null) {
            return existing;
        }
        IndexEntry e = new IndexEntry(h.key(), path, h.headerLength(), h.bodyLength(), h.bodyCrc(), false);
        e.lastUsedMillis = lastUsedMillis;
        index.put(h.key(), e);
        policy.onInsert(h.key(), e.fileLength());
        committedBytes += e.fileLength();
        return e;
    }

    /**
     * While the scan runs, looks for the key's file where the layout puts it, so that a filled
     * store serves hits from its first moment; indexes it if valid, deletes it if damaged.
     */
    private void probeDuringScan(CacheKey key) throws IOException {
        if (indexReady.getCount() == 0) {
            return;
        }
        Path path = layout.pathOf(key);
        long size;
        try {
            size = Files.size(path);
        } catch (NoSuchFileException e) {
            return;
        }
        ObjectFileHeader header;
        try {
            header = IndexRebuilder.readHeader(path, size);
            if (!header.key().equals(key)) {
                throw new CorruptObjectException("file holds key '" + header.key() + "'");
            }
        } catch (NoSuchFileException e) {
            return;
        } catch (CorruptObjectException e) {
            deleteDamagedProbed(key, path, e.getMessage());
            return;
        }
        lookupLock.lock();
        try {
            if (!scanMerged && !index.containsKey(key)) {
                indexFound(header, path, System.currentTimeMillis());
                probedAtOpen.increment();
            }
        } finally {
            lookupLock.unlock();
        }
    }

    /**
     * Deletes a file a probe found damaged, unless its key is indexed by now (the scan ended and a write renamed a new
     * version onto the path meanwhile). Takes the store's lock, so it blocks behind unlinks and renames.
     */
    private void deleteDamagedProbed(CacheKey key, Path path, String why) throws IOException {
        lock.lock();
        try {
            lookupLock.lock();
            try {
                if (index.containsKey(key)) {
                    return;
                }
            } finally {
                lookupLock.unlock();
            }
            LOG.log(System.Logger.Level.WARNING, "deleting damaged object file {0}: {1}", path, why);
            fileOps.delete(path);
            counters.corruptObjectsDropped.increment();
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the scan at open to finish; writes, removals and usage need the whole index. */
    private void awaitIndex() throws IOException {
        try {
            indexReady.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for the index of raw-files " + layout.root(), e);
        }
        if (scanFailure != null) {
            throw new IOException("the index of raw-files " + layout.root() + " could not be rebuilt: " + scanFailure,
                    scanFailure);
        }
    }

    /**
     * Opens (creating if needed) a store in {@code dir}.
     *
     * @param levels   nginx-style directory levels, e.g. {@code 1:2}
     * @param policy   the name of an eviction policy in {@link EvictionPolicies}
     */
    public static RawFilesStore open(Path dir, long capacityBytes, String policy, SyncMode sync, String levels)
            throws IOException {
        return open(dir, capacityBytes, policy, sync, levels, ReadAhead.parse(ReadAhead.FILES_SETTING.defaultValue()));
    }

    /**
     * Opens (creating if needed) a store in {@code dir} whose readers' files get {@code readAhead}'s advice.
     *
     * @param levels   nginx-style directory levels, e.g. {@code 1:2}
     * @param policy   the name of an eviction policy in {@link EvictionPolicies}
     */
    public static RawFilesStore open(Path dir, long capacityBytes, String policy, SyncMode sync, String levels,
                                     ReadAhead readAhead) throws IOException {
        return open(dir, capacityBytes, policy, sync, levels, readAhead, DEFAULT_RECENCY_INTERVAL_MILLIS);
    }

    /**
     * Opens a store that writes its recency file every {@code recencyIntervalMillis} (0: at close only), see
     * {@link #open(Path, long, String, SyncMode, String, ReadAhead)}.
     */
    public static RawFilesStore open(Path dir, long capacityBytes, String policy, SyncMode sync, String levels,
                                     ReadAhead readAhead, long recencyIntervalMillis) throws IOException {
        return open(dir, capacityBytes, policy, sync, levels, readAhead, recencyIntervalMillis, FileOps.DIRECT);
    }

    /**
     * Opens a store whose unlinks, renames into place and header rewrites go through {@code fileOps} (tests
     * stall them).
     */
    static RawFilesStore open(Path dir, long capacityBytes, String policy, SyncMode sync, String levels,
                              ReadAhead readAhead, long recencyIntervalMillis, FileOps fileOps) throws IOException {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("engine setting 'capacity' must be positive, got " + capacityBytes);
        }
        if (recencyIntervalMillis < 0) {
            throw new IllegalArgumentException("engine setting 'recency-interval' must not be negative, got "
                    + recencyIntervalMillis + " ms");
        }
        return new RawFilesStore(new FileLayout(dir, FileLayout.parseLevels(levels)), capacityBytes, policy, sync,
                readAhead, recencyIntervalMillis, fileOps);
    }

    private void checkMarker() throws IOException {
        Path marker = layout.root().resolve(MARKER);
        if (Files.exists(marker)) {
            Properties p = new Properties();
            try (var in = Files.newBufferedReader(marker, StandardCharsets.UTF_8)) {
                p.load(in);
            }
            String levels = p.getProperty("levels", "");
            if (!levels.equals(layout.levelsSpec())) {
                throw new IllegalArgumentException("raw-files directory " + layout.root() + " was created with levels="
                        + levels + "; open it with levels=" + levels + " or use an empty directory");
            }
        } else {
            Files.writeString(marker, "# EdgeLab raw-files store: do not change levels once objects are stored\n"
                    + "format=1\nlevels=" + layout.levelsSpec() + "\n", StandardCharsets.UTF_8);
        }
    }

    @Override
    public String engineName() {
        return RawFilesEngine.NAME;
    }

    /**
     * Everything but views (there are none): lookups open files and read headers, writers create,
     * write and rename files, file slices bring their bytes into memory ({@link PageIn}), usage
     * waits for the index rebuild, and releases close files.
     */
    @Override
    public Set<StoreCall> blockingCalls() {
        return StoreCall.allExcept(StoreCall.VIEW);
    }

    @Override
    public Optional<StoredObject> lookup(CacheKey key) throws IOException {
        ensureOpen();
        counters.lookups.increment();
        probeDuringScan(key);
        for (int attempt = 1; ; attempt++) {
            Optional<StoredObject> found = lookupOnce(key);
            if (found != null) {
                return found;
            }
            if (attempt == LOOKUP_ATTEMPTS) {
                return Optional.empty();
            }
        }
    }

    /** How slices' pages are brought in: by the read-ahead setting's method. */
    PageIn.Method pageInMethod() {
        return readAhead.pageInMethod();
    }

    /**
     * One try at a lookup: takes the entry and counts a reader under the lookup lock, then opens and checks its file
     * with no lock held. Returns null when the entry was replaced or removed while its file was opened (the path then
     * held another version, or nothing): try again.
     */
    private Optional<StoredObject> lookupOnce(CacheKey key) throws IOException {
        IndexEntry entry;
        lookupLock.lock();
        try {
            entry = index.get(key);
            if (entry == null) {
                return Optional.empty();
            }
            entry.readers++;
            policy.onAccess(key);
            used(entry);
        } finally {
            lookupLock.unlock();
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(entry.path, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            releaseReader(entry);
            return forgetMissing(entry) ? Optional.empty() : null;
        } catch (IOException | RuntimeException e) {
            releaseReader(entry);
            throw e;
        }
        boolean handedOut = false;
        try {
            readAhead.apply(channel);
            ObjectMetadata metadata = openedHeader(entry, channel);
            long verifiedNow = entry.verify(channel);
            if (verifiedNow < 0) {
                throw new CorruptObjectException("body checksum mismatch");
            }
            if (verifiedNow > 0) {
                verifications.increment();
                verifiedBytes.add(verifiedNow);
            }
            counters.lookupHits.increment();
            handedOut = true;
            return Optional.of(new CommittedFileObject(this, entry, channel, metadata));
        } catch (CorruptObjectException e) {
            return dropCorrupt(entry, e.getMessage()) ? Optional.empty() : null;
        } finally {
            if (!handedOut) {
                channel.close();
                releaseReader(entry);
            }
        }
    }

    /** Reads and checks the header of an opened entry's file; throws CorruptObjectException when it does not match. */
    private ObjectMetadata openedHeader(IndexEntry entry, FileChannel channel) throws IOException {
        ObjectFileHeader header;
        synchronized (entry) {
            header = IndexRebuilder.readHeader(channel, entry.headerLength);
        }
        if (!header.key().equals(entry.key) || header.headerLength() != entry.headerLength
                || header.bodyLength() != entry.bodyLength || header.bodyCrc() != entry.bodyCrc) {
            throw new CorruptObjectException("header no longer matches the index");
        }
        if (channel.size() != entry.fileLength()) {
            throw new CorruptObjectException("file is " + channel.size() + " bytes, expected " + entry.fileLength());
        }
        return header.metadata();
    }

    /**
     * Forgets an entry whose file was missing when a lookup opened it (deleted behind the store's back), as
     * {@link #forgetIfIndexed} does.
     */
    private boolean forgetMissing(IndexEntry e) {
        return forgetIfIndexed(e, null);
    }

    private boolean stillIndexed(IndexEntry e) {
        lookupLock.lock();
        try {
            return index.get(e.key) == e;
        } finally {
            lookupLock.unlock();
        }
    }

    /** Pins the object under {@code key} like an open reader would, without opening its file. */
    @Override
    public Optional<Pin> pin(CacheKey key) throws IOException {
        ensureOpen();
        probeDuringScan(key);
        lookupLock.lock();
        try {
            IndexEntry entry = index.get(key);
            if (entry == null) {
                return Optional.empty();
            }
            entry.readers++;
            policy.onAccess(key);
            used(entry);
            AtomicBoolean released = new AtomicBoolean();
            return Optional.of(() -> {
                if (released.compareAndSet(false, true)) {
                    releaseReader(entry);
                }
            });
        } finally {
            lookupLock.unlock();
        }
    }

    @Override
    public ObjectWriter begin(CacheKey key, ObjectMetadata metadata) throws IOException {
        ensureOpen();
        awaitIndex();
        int headerLength = ObjectFileHeader.lengthFor(key, metadata);
        long initial = headerLength + Math.max(0, metadata.length());
        Path finalPath = layout.pathOf(key);
        Path dir = finalPath.getParent();
        if (!knownDirectories.contains(dir)) {
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw judged(e);
            }
            knownDirectories.add(dir);
        }
        if (initial > capacity) {
            throw new StorageFullException("object '" + key + "' needs " + initial + " bytes, more than the capacity "
                    + capacity + " of raw-files " + layout.root());
        }
        lock.lock();
        try {
            reserveRoom(initial, null);
        } finally {
            lock.unlock();
        }
        Path temp = FileLayout.tempPathFor(finalPath, nextNonce());
        FileChannel channel;
        try {
            channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
        } catch (IOException e) {
            unreserve(initial);
            throw judged(e);
        } catch (RuntimeException e) {
            unreserve(initial);
            throw e;
        }
        FileObjectWriter w = new FileObjectWriter(this, key, metadata, finalPath, temp, channel, headerLength, initial);
        writers.add(w);
        counters.writesBegun.increment();
        return w;
    }

    @Override
    public boolean remove(CacheKey key) throws IOException {
        ensureOpen();
        awaitIndex();
        lock.lock(); // no write renames a new version onto the path before the old one is unlinked
        try {
            IndexEntry e;
            lookupLock.lock();
            try {
                e = index.get(key);
                if (e == null) {
                    return false;
                }
                policy.onRemove(key);
                unindex(e);
                counters.removals.increment();
            } finally {
                lookupLock.unlock();
            }
            deleteFile(e);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean updateMetadata(CacheKey key, ObjectMetadata metadata) throws IOException {
        ensureOpen();
        awaitIndex();
        Optional<StoredObject> found = lookup(key);
        if (found.isEmpty()) {
            return false;
        }
        try (StoredObject current = found.get()) {
            IndexEntry entry = ((CommittedFileObject) current).entry();
            if (metadata.length() != entry.bodyLength) {
                throw new IllegalArgumentException("updated metadata of '" + key + "' has length " + metadata.length()
                        + " but the stored body has " + entry.bodyLength);
            }
            if (ObjectFileHeader.lengthFor(key, metadata) <= entry.headerLength) {
                ByteBuffer h = new ObjectFileHeader(key, metadata, entry.headerLength, entry.bodyLength, entry.bodyCrc).encode();
                FileChannel ch = rewriteHeader(entry, h);
                if (ch == null) {
                    return false;
                }
                try (ch) {
                    if (syncMode != SyncMode.NONE) {
                        ch.force(false);
                    }
                }
                return true;
            }
            // The new metadata needs a larger header: rewrite the object through a normal write.
            try (ObjectWriter w = begin(key, metadata)) {
                ByteBuffer buf = ByteBuffer.allocate((int) Math.min(1 << 20, Math.max(1, entry.bodyLength)));
                long pos = 0;
                while (pos < entry.bodyLength) {
                    buf.clear();
                    int n = current.read(pos, buf);
                    if (n < 0) {
                        throw new CorruptObjectException("object '" + key + "' ended early while rewriting it");
                    }
                    buf.flip();
                    w.write(buf);
                    pos += n;
                }
                w.commit(metadata);
            }
            return true;
        }
    }

    /**
     * Writes {@code header} over the header of {@code entry}'s file, under the store's lock, which publishes take to
     * rename a new version onto the same path: so the file written is the entry's, never a newer version's (which
     * would then carry this version's checksum and be dropped as damaged at its next lookup). Returns the open channel
     * (to force outside the lock), or null when the entry was replaced or removed since it was looked up. Blocks on
     * the file system.
     */
    private FileChannel rewriteHeader(IndexEntry entry, ByteBuffer header) throws IOException {
        lock.lock();
        try {
            if (!stillIndexed(entry)) {
                return null;
            }
            FileChannel ch;
            try {
                ch = fileOps.openForRewrite(entry.path);
            } catch (NoSuchFileException e) {
                return null;
            }
            try {
                synchronized (entry) {
                    long pos = 0;
                    while (header.hasRemaining()) {
                        pos += ch.write(header, pos);
                    }
                }
                return ch;
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public StoreUsage usage() {
        try {
            awaitIndex();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        lookupLock.lock();
        try {
            return new StoreUsage(capacity, committedBytes + reservedBytes + pinnedBytes, index.size());
        } finally {
            lookupLock.unlock();
        }
    }

    @Override
    public StoreStats stats() {
        Map<String, Object> extra = new LinkedHashMap<>();
        lookupLock.lock();
        try {
            extra.put("committedBytes", committedBytes);
            extra.put("reservedBytes", reservedBytes);
            extra.put("pinnedBytes", pinnedBytes);
        } finally {
            lookupLock.unlock();
        }
        extra.put("policy", policyName);
        extra.put("sync", syncMode.settingValue());
        extra.put("readAhead", readAhead.status());
        extra.put("pageIn", PageIn.status(readAhead.pageInMethod()));
        extra.put("levels", layout.levelsSpec());
        extra.put("writesInProgress", writers.size());
        extra.put("bodyVerifications", verifications.sum());
        extra.put("bodyVerifiedBytes", verifiedBytes.sum());
        IndexRebuilder.Result r = rebuilt;
        extra.put("indexReady", indexReady.getCount() == 0);
        extra.put("rebuildMillis", rebuildMillis);
        extra.put("probedBeforeIndexReady", probedAtOpen.sum());
        extra.put("fileSystemFullRefusals", fileSystemFull.sum());
        extra.put("recencyIntervalMillis", recencyIntervalMillis);
        extra.put("recencyWrites", recencyWrites.sum());
        if (r != null) {
            extra.put("rebuiltObjects", r.found().size());
            extra.put("tempFilesDeletedAtOpen", r.tempFilesDeleted());
            extra.put("damagedFilesDeletedAtOpen", r.corruptFilesDeleted());
            extra.put("unknownFilesIgnored", r.unknownFilesIgnored());
            extra.put("filesVanishedDuringRebuild", r.vanishedFiles());
        }
        return counters.snapshot(extra);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        for (FileObjectWriter w : writers) {
            w.abort();
        }
        try {
            scanner.join();
            if (recencyWriter != null) {
                recencyWriter.shutdown();
                recencyWriter.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (indexReady.getCount() == 0 && scanFailure == null) {
                writeRecency();
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot write the raw-files recency file at close: {0}", e.toString());
        }
        try {
            dirLock.release();
        } finally {
            lockChannel.close();
        }
    }

    /** Marks {@code e} used now (under lookupLock). */
    private void used(IndexEntry e) {
        e.lastUsedMillis = System.currentTimeMillis();
        recencyDirty = true;
    }

    private void writeRecencyInBackground() {
        if (indexReady.getCount() != 0 || closed) {
            return; // the rebuilt index is not whole yet: writing now would drop what the last file knew
        }
        try {
            writeRecency();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot write the raw-files recency file: {0}", e.toString());
        }
    }

    /**
     * Writes when each indexed object was last used to the recency file, if any was used since the last write: the
     * times are copied under the lookup lock, the file written outside it. Called by one thread at a time (the writer,
     * then close once the writer has stopped). Blocks on the file system.
     */
    void writeRecency() throws IOException {
        long[] hashes;
        long[] lastUsed;
        int n = 0;
        lookupLock.lock();
        try {
            if (!recencyDirty) {
                return;
            }
            recencyDirty = false;
            hashes = new long[index.size()];
            lastUsed = new long[index.size()];
            for (IndexEntry e : index.values()) {
                hashes[n] = e.key.hash64();
                lastUsed[n] = e.lastUsedMillis;
                n++;
            }
        } finally {
            lookupLock.unlock();
        }
        try {
            RecencyFile.write(layout.root(), RECENCY_FILE, hashes, lastUsed, n);
        } catch (IOException e) {
            lookupLock.lock();
            try {
                recencyDirty = true; // try again next time
            } finally {
                lookupLock.unlock();
            }
            throw e;
        }
        recencyWrites.increment();
    }

    // ---- called by writers and readers ----

    long capacity() {
        return capacity;
    }

    SyncMode syncMode() {
        return syncMode;
    }

    long nextNonce() {
        return nonce.incrementAndGet();
    }

    /** Reserves {@code bytes} more of the budget for {@code w}, evicting as needed; blocks on the unlinks. */
    void reserve(FileObjectWriter w, long bytes) throws StorageFullException {
        lock.lock();
        try {
            ensureOpen();
            reserveRoom(bytes, w);
        } finally {
            lock.unlock();
        }
    }

    private void unreserve(long bytes) {
        lookupLock.lock();
        try {
            reservedBytes -= bytes;
        } finally {
            lookupLock.unlock();
        }
    }

    /**
     * Renames a written temporary file into place and indexes it, replacing any earlier object: the rename under the
     * store's lock alone, the index change under the lookup lock after it. Blocks on the rename (and on unlinks when
     * the file outgrew its reservation).
     */
    void publish(FileObjectWriter w, ObjectFileHeader header, Path temp) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            long more;
            lookupLock.lock();
            try {
                more = header.fileLength() - w.reserved;
            } finally {
                lookupLock.unlock();
            }
            if (more > 0) {
                reserveRoom(more, w);
            }
            try {
                fileOps.moveIntoPlace(temp, w.finalPath);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system of " + layout.root() + " cannot rename atomically", e);
            }
            lookupLock.lock();
            try {
                reservedBytes -= w.reserved;
                w.reserved = 0;
                IndexEntry old = index.get(w.key());
                if (old != null) {
                    unlinked(old); // the rename replaced its file
                }
                IndexEntry e = new IndexEntry(w.key(), w.finalPath, header.headerLength(), header.bodyLength(),
                        header.bodyCrc(), true);
                used(e);
                index.put(w.key(), e);
                policy.onInsert(w.key(), e.fileLength());
                committedBytes += e.fileLength();
            } finally {
                lookupLock.unlock();
            }
            counters.writesCommitted.increment();
            counters.bytesWritten.add(header.bodyLength());
        } finally {
            lock.unlock();
        }
    }

    void syncDirectory(Path dir) throws IOException {
        if (syncMode == SyncMode.FULL) {
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            }
        }
    }

    void writerFinished(FileObjectWriter w) {
        writers.remove(w);
    }

    void writerAborted(FileObjectWriter w) {
        lookupLock.lock();
        try {
            reservedBytes -= w.reserved;
            w.reserved = 0;
        } finally {
            lookupLock.unlock();
        }
        if (writers.remove(w)) {
            counters.writesAborted.increment();
        }
    }

    void releaseReader(IndexEntry e) {
        lookupLock.lock();
        try {
            e.readers--;
            if (e.unlinked && e.readers == 0) {
                pinnedBytes -= e.fileLength();
            }
        } finally {
            lookupLock.unlock();
        }
    }

    /** Deletes a damaged object file and forgets it, as {@link #forgetIfIndexed} does, counting the drop. */
    boolean dropCorrupt(IndexEntry e, String why) {
        return forgetIfIndexed(e, why);
    }

    /**
     * Forgets an entry and unlinks its file, if the index still holds this entry; returns whether it did (false: the
     * entry was replaced or removed meanwhile, and what its path holds now is not its file). {@code damage} (null for a
     * file found missing) is logged and counted as a corrupt object dropped. Takes the store's lock, under which
     * publishes rename and index, so it blocks until one under way ends: an entry still indexed then is the one whose
     * file is at its path. Blocks on the unlink.
     */
    private boolean forgetIfIndexed(IndexEntry e, String damage) {
        if (!stillIndexed(e)) {
            return false;
        }
        lock.lock();
        try {
            lookupLock.lock();
            try {
                if (index.get(e.key) != e) {
                    return false;
                }
                policy.onRemove(e.key);
                unindex(e);
                if (damage != null) {
                    LOG.log(System.Logger.Level.WARNING, "dropping damaged object file {0} of ''{1}'': {2}", e.path,
                            e.key, damage);
                    counters.corruptObjectsDropped.increment();
                }
            } finally {
                lookupLock.unlock();
            }
            deleteFile(e); // nothing to unlink when it was found missing: deleting is then a no-op
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns what to throw for an I/O error met writing an object: a {@code StorageFullException}
     * when the file system is full (nothing else is wrong: stored objects stay served), else the error.
     */
    IOException judged(IOException e) {
        if (e instanceof StorageFullException || !FileSystemErrors.isNoSpace(e, layout.root())) {
            return e;
        }
        fileSystemFull.increment();
        return FileSystemErrors.full("raw-files", layout.root(), e);
    }

    void countRead(long bytes) {
        counters.bytesRead.add(bytes);
    }

    void logLeftover(Path temp, IOException e) {
        LOG.log(System.Logger.Level.WARNING, "cannot delete temporary file {0} (deleted at next open): {1}", temp, e);
    }

    // ---- eviction and forgetting ----

    /**
     * Evicts until {@code bytes} more fit in the budget and reserves them (for {@code w}, if not null); fails when
     * nothing evictable is left. The store's lock held: victims are chosen and forgotten under the lookup lock, their
     * files unlinked after it is released (blocking on the file system).
     */
    private void reserveRoom(long bytes, FileObjectWriter w) throws StorageFullException {
        List<IndexEntry> victims = new ArrayList<>();
        try {
            lookupLock.lock();
            try {
                if (w != null && w.reserved + bytes > capacity) {
                    throw new StorageFullException("object '" + w.key() + "' grew past the capacity " + capacity
                            + " of raw-files " + layout.root());
                }
                List<IndexEntry> skipped = new ArrayList<>();
                try {
                    evictFor(bytes, skipped, victims);
                } finally {
                    for (IndexEntry e : skipped) {
                        policy.onInsert(e.key, e.fileLength());
                    }
                }
                reservedBytes += bytes;
                if (w != null) {
                    w.reserved += bytes;
                }
            } finally {
                lookupLock.unlock();
            }
        } finally {
            for (IndexEntry e : victims) {
                deleteFile(e);
            }
        }
    }

    /**
     * Evicts until {@code bytes} more fit (under lookupLock), forgetting each victim and adding it to {@code victims},
     * whose files the caller unlinks once it has released the lookup lock. Objects held by readers are skipped
     * (evicting them would free nothing while they are read) and collected in {@code skipped} for re-insertion.
     */
    private void evictFor(long bytes, List<IndexEntry> skipped, List<IndexEntry> victims) throws StorageFullException {
        while (committedBytes + reservedBytes + pinnedBytes + bytes > capacity) {
            CacheKey victim = policy.evict();
            if (victim != null && index.get(victim) != null && index.get(victim).readers > 0) {
                skipped.add(index.get(victim));
                continue;
            }
            if (victim == null) {
                throw new StorageFullException("raw-files " + layout.root() + " cannot make room for " + bytes
                        + " bytes: " + committedBytes + " committed, " + reservedBytes + " reserved by writes in progress, "
                        + pinnedBytes + " held by readers of removed objects, " + skipped.size()
                        + " objects held by readers, capacity " + capacity);
            }
            IndexEntry e = index.get(victim);
            if (e != null) {
                unindex(e);
                victims.add(e);
                counters.evictions.increment();
                counters.evictedBytes.add(e.bodyLength);
            }
        }
    }

    /** Removes an entry from the index and its bytes from the committed budget; under lookupLock, the policy told. */
    private void unindex(IndexEntry e) {
        index.remove(e.key, e);
        unlinked(e);
    }

    /** Unlinks a forgotten entry's file (under the store's lock, not the lookup lock); blocks on the file system. */
    private void deleteFile(IndexEntry e) {
        try {
            fileOps.delete(e.path);
        } catch (IOException ex) {
            LOG.log(System.Logger.Level.WARNING, "cannot delete object file {0}: {1}", e.path, ex);
        }
    }

    /** Moves an entry's bytes out of the committed budget (into the pinned one while readers hold it); lookupLock. */
    private void unlinked(IndexEntry e) {
        e.unlinked = true;
        committedBytes -= e.fileLength();
        if (e.readers > 0) {
            pinnedBytes += e.fileLength();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("raw-files store " + layout.root() + " is closed");
        }
    }
}
