/**
 * The {@code lmdb} storage engine: EdgeLab's B-tree, copy-on-write, memory-mapped design, on LMDB
 * through lmdbjava (the JVM needs {@code --add-opens java.base/java.nio=ALL-UNNAMED --add-opens
 * java.base/sun.nio.ch=ALL-UNNAMED}, the Maven property {@code edgelab.lmdb.opens}).
 *
 * <h2>Layout</h2>
 * One environment (directory {@code path}: {@code data.mdb}, {@code lock.mdb}, a marker file and
 * the recency file {@code lmdb.recency}) with two databases: {@code chunks}, keyed by object id (8 bytes, big-endian, allocated
 * monotonically) + chunk index (4 bytes), so an object's chunks are adjacent and in order; and
 * {@code meta}, keyed by the cache key, holding id, length, chunk size and
 * {@link org.edgelab.storage.api.MetadataCodec} bytes (see {@link org.edgelab.storage.lmdb.Layout}).
 *
 * <h2>Settings</h2>
 * <ul>
 *   <li>{@code path} (required): the environment's directory, created if missing.</li>
 *   <li>{@code map-size} (default {@code capacity / 0.75}, else 1 GiB): the most the data file can
 *       grow to. The file only takes the pages in use.</li>
 *   <li>{@code capacity} (default 0.75 x map-size, and never more): the byte budget of objects,
 *       counted in map bytes (values rounded to pages, B-tree entries estimated). The other quarter
 *       of the map is left to LMDB: its free-page list, pages freed but not yet reusable, and
 *       snapshots held by readers. A full map is still handled: the writer evicts and retries, and
 *       refuses the writes with {@link org.edgelab.storage.api.StorageFullException} when nothing
 *       more can be evicted.</li>
 *   <li>{@code chunk-size} (default 256 KiB): bytes per value, rounded down so a value and its page
 *       header fill whole pages (262,128 bytes in 64 pages of 4 KiB).</li>
 *   <li>{@code policy} (default {@code lru}): the eviction policy, by name.</li>
 *   <li>{@code sync} (default {@code full}): {@code full} fsyncs every commit, so an object whose
 *       {@code commit()} returned survives a power cut; {@code nometasync} may lose the last
 *       commit on a power cut; {@code nosync} may lose the recent ones, and on a file system that
 *       reorders writes leave the file damaged (it then fails to open with a clear error). A killed
 *       process (SIGKILL) loses nothing committed in any mode. Commits from concurrent writers share
 *       one transaction, so one fsync covers a whole batch.</li>
 *   <li>{@code batch-max} (default 64): the most chunk and record writes one transaction commits.</li>
 *   <li>{@code recency-interval} (default {@code 10s}; {@code 0}: only at close): how often when each
 *       object was last read or written is written to {@code lmdb.recency}, from which a restarted
 *       store gives its eviction policy the objects least recently used first (without it, or with
 *       a damaged one, in write order: a full store then evicts the hot set warmed first). A crash
 *       loses at most this much of the order; nothing stored depends on the file.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * One writer thread commits batches of writes from every {@link org.edgelab.storage.api.ObjectWriter}
 * (a bounded queue throttles writers that outrun the disk); {@code commit()} returns once the batch
 * holding the object's record, and so all its chunks, has committed. Readers never wait for it, and
 * no read transaction outlives the call that opened it, however long a reference stays open: each
 * {@code read()} copies out of the map inside a pooled read transaction ({@code MDB_NOTLS}, renewed
 * and reset per call); {@code view()} looks a chunk up in one such transaction, ends it, and lends
 * the chunk's map memory. That memory stays valid and unchanged until the reference closes because
 * a full chunk lives on LMDB overflow pages, which LMDB frees only when the chunk is deleted, and a
 * body's chunks are deleted only after its last reference closed (bodies of removed or evicted
 * objects stay until then). A value under half a page (at most an object's last chunk) lives in a
 * leaf page that later writes may copy, so views copy it instead. The environment is closed (the
 * map unmapped) only after every transaction ended and every reference that lent a view closed.
 */
package org.edgelab.storage.lmdb;
