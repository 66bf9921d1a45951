package org.edgelab.storage.lmdb;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.StorageException;
import org.lmdbjava.Cursor;
import org.lmdbjava.CursorIterable;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/**
 * Rebuilds what an LMDB store knows of its objects when it opens, and deletes what a crash or
 * damage left behind: metadata records that do not decode are deleted, chunks without a
 * committed record (a write cut short) are deleted, and an object whose chunks do not add up to
 * its recorded length (missing, out of order or of the wrong size) is dropped and counted. Chunk
 * contents are not read here: their checksums are checked when an object is first looked up.
 *
 * <p>Runs once, on the opening thread, before the store is shared; it uses one read transaction
 * for the scan and one write transaction for the clean-up.
 */
final class LmdbRecovery {

    private static final System.Logger LOG = System.getLogger(LmdbRecovery.class.getName());

    /**
     * What was found: the committed objects (oldest id first), the highest id seen, and how many
     * orphan chunks and damaged objects were deleted.
     */
    record Result(List<StoredEntry> live, long maxId, int orphanChunksDeleted, int damagedDropped) {
    }

    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> metaDb;
    private final Dbi<ByteBuffer> chunkDb;
    private final int pageSize;
    private final Path path;
    private final Consumer<StoredEntry> onReleased;

    /** {@code onReleased} is what each recovered entry runs once its last reader let go of it after removal. */
    LmdbRecovery(Env<ByteBuffer> env, Dbi<ByteBuffer> metaDb, Dbi<ByteBuffer> chunkDb, int pageSize, Path path,
                 Consumer<StoredEntry> onReleased) {
        this.env = env;
        this.metaDb = metaDb;
        this.chunkDb = chunkDb;
        this.pageSize = pageSize;
        this.path = path;
        this.onReleased = onReleased;
    }

    /** Scans both databases and cleans up; returns the objects that are whole. */
    Result recover() throws StorageException {
        Map<Long, StoredEntry> byId = new HashMap<>();
        List<byte[]> badRecords = new ArrayList<>();
        List<long[]> orphanChunks = new ArrayList<>();
        Map<Long, Integer> chunksSeen = new HashMap<>();
        Set<StoredEntry> damaged = new LinkedHashSet<>();
        long maxId = 0;
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            try (CursorIterable<ByteBuffer> it = metaDb.iterate(txn)) {
                for (CursorIterable.KeyVal<ByteBuffer> kv : it) {
                    byte[] lmdbKey = bytes(kv.key());
                    if (Layout.isEngineKey(lmdbKey)) {
                        continue;
                    }
                    try {
                        Layout.MetaRecord r = Layout.decodeMeta(kv.val(), false);
                        byte[] keyBytes = r.fullKey().length > 0 ? r.fullKey() : lmdbKey;
                        CacheKey key = new CacheKey(utf8(keyBytes));
                        long fp = Layout.chunksFootprint(r.length(), r.chunkSize(), pageSize, r.checksummed())
                                + Layout.valueFootprint(lmdbKey.length, kv.val().remaining(), pageSize);
                        StoredEntry e = StoredEntry.recovered(key, keyBytes, r.id(), r.chunkSize(), r.checksummed(),
                                r.length(), fp, onReleased);
                        if (byId.putIfAbsent(r.id(), e) != null) {
                            throw new CorruptObjectException("two records claim object id " + r.id());
                        }
                        maxId = Math.max(maxId, r.id());
                    } catch (CorruptObjectException | IllegalArgumentException e) {
                        LOG.log(Level.WARNING, "dropping a damaged metadata record: " + e.getMessage());
                        badRecords.add(lmdbKey);
                    }
                }
            }
            try (CursorIterable<ByteBuffer> it = chunkDb.iterate(txn)) {
                for (CursorIterable.KeyVal<ByteBuffer> kv : it) {
                    ByteBuffer k = kv.key();
                    if (k.remaining() != Layout.CHUNK_KEY_BYTES) {
                        throw new CorruptObjectException("the chunk database holds a key of " + k.remaining() + " bytes");
                    }
                    long id = k.getLong(k.position());
                    int chunk = k.getInt(k.position() + 8);
                    maxId = Math.max(maxId, id);
                    StoredEntry e = byId.get(id);
                    if (e == null) {
                        orphanChunks.add(new long[] {id, chunk});
                        continue;
                    }
                    int expected = chunksSeen.merge(id, 1, Integer::sum) - 1;
                    long expectedSize = Layout.chunkValueBytes(
                            Math.min(e.chunkSize, e.readableLength() - (long) chunk * e.chunkSize), e.checksummed);
                    if (chunk != expected || kv.val().remaining() != expectedSize) {
                        damaged.add(e);
                    }
                }
            }
        } catch (LmdbException e) {
            throw LmdbErrors.translate(e, "reading " + path + " at open");
        }
        for (StoredEntry e : byId.values()) {
            if (chunksSeen.getOrDefault(e.id, 0) != e.chunkCount()) {
                damaged.add(e);
            }
        }
        for (StoredEntry e : damaged) {
            byId.remove(e.id);
            LOG.log(Level.WARNING, "dropping '" + e.key + "': its chunks do not add up to its recorded length");
        }
        if (!badRecords.isEmpty() || !orphanChunks.isEmpty() || !damaged.isEmpty()) {
            deleteAtOpen(badRecords, orphanChunks, damaged);
        }
        List<StoredEntry> live = new ArrayList<>(byId.values());
        live.sort(Comparator.comparingLong(e -> e.id));
        if (!orphanChunks.isEmpty() || !live.isEmpty()) {
            LOG.log(Level.INFO, "opened " + path + ": " + live.size() + " objects, "
                    + orphanChunks.size() + " chunks of unfinished writes deleted");
        }
        return new Result(live, maxId, orphanChunks.size(), damaged.size());
    }

    private void deleteAtOpen(List<byte[]> badRecords, List<long[]> orphanChunks, Set<StoredEntry> damaged)
            throws StorageException {
        ByteBuffer key = ByteBuffer.allocateDirect(Layout.MAX_META_KEY_BYTES);
        try (Txn<ByteBuffer> txn = env.txnWrite()) {
            for (byte[] k : badRecords) {
                metaDb.delete(txn, key.clear().put(k).flip());
            }
            for (long[] c : orphanChunks) {
                chunkDb.delete(txn, Layout.chunkKey(key, c[0], (int) c[1]));
            }
            for (StoredEntry e : damaged) {
                metaDb.delete(txn, key.clear().put(Layout.metaKey(e.keyBytes)).flip());
                try (Cursor<ByteBuffer> c = chunkDb.openCursor(txn)) {
                    Layout.chunkKey(key, e.id, 0);
                    while (c.get(key, GetOp.MDB_SET_RANGE)
                            && c.key().getLong(c.key().position()) == e.id) {
                        c.delete();
                        Layout.chunkKey(key, e.id, 0);
                    }
                }
            }
            txn.commit();
        } catch (LmdbException e) {
            throw LmdbErrors.translate(e, "cleaning up " + path + " at open");
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static String utf8(byte[] b) throws CorruptObjectException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            throw new CorruptObjectException("a stored key is not UTF-8", e);
        }
    }
}
