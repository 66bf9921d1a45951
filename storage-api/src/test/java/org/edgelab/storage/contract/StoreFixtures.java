package org.edgelab.storage.contract;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.Optional;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;

/** Helpers the contract suite and the crash harness share to write and verify test objects. Stateless. */
public final class StoreFixtures {

    private StoreFixtures() {
    }

    /** Returns metadata for a 200 response of {@code length} bytes (or unknown) with a few headers. */
    public static ObjectMetadata metadata(long length) {
        return new ObjectMetadata(200,
                List.of(new HeaderField("Content-Type", "application/octet-stream"),
                        new HeaderField("ETag", "\"v1\""),
                        new HeaderField("Cache-Control", "public, max-age=60")),
                length, 1_000L, 1_010L, 61_010L);
    }

    /** Returns metadata carrying {@code version} in an {@code X-Version} header. */
    public static ObjectMetadata versioned(long length, long version) {
        return new ObjectMetadata(200,
                List.of(new HeaderField("Content-Type", "application/octet-stream"),
                        new HeaderField("X-Version", Long.toString(version))),
                length, 1_000L, 1_010L, ObjectMetadata.NEVER);
    }

    /**
     * Writes {@code size} bytes of {@link TestContent} with {@code seed} in chunks of
     * {@code chunkSize}, without committing. Returns the writer.
     */
    public static ObjectWriter writeUncommitted(ObjectStore store, CacheKey key, ObjectMetadata metadata, long seed,
                                                long size, int chunkSize) throws IOException {
        ObjectWriter w = store.begin(key, metadata);
        try {
            writeBody(w, seed, 0, size, chunkSize);
        } catch (IOException | RuntimeException e) {
            w.close();
            throw e;
        }
        return w;
    }

    /** Appends bytes [from, to) of the content to {@code w} in chunks of {@code chunkSize}. */
    public static void writeBody(ObjectWriter w, long seed, long from, long to, int chunkSize) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.max(1, Math.min(chunkSize, Math.max(1, to - from))));
        for (long pos = from; pos < to; ) {
            int n = (int) Math.min(chunkSize, to - pos);
            buf.clear().limit(n);
            TestContent.fill(seed, pos, buf);
            buf.flip();
            w.write(buf);
            if (buf.hasRemaining()) {
                throw new AssertionError("ObjectWriter.write must consume the whole chunk; " + buf.remaining() + " left");
            }
            pos += n;
        }
    }

    /** Writes and commits an object; returns its size. */
    public static long put(ObjectStore store, CacheKey key, long seed, long size, int chunkSize) throws IOException {
        try (ObjectWriter w = writeUncommitted(store, key, metadata(size), seed, size, chunkSize)) {
            w.commit();
        }
        return size;
    }

    /**
     * Reads {@code length} bytes from {@code position} through {@link StoredObject#read} in reads
     * of at most {@code bufferSize}, and checks them against the content. Fails naming the offset.
     */
    public static void verifyRead(StoredObject o, long seed, long position, long length, int bufferSize)
            throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.max(1, Math.min(bufferSize, Math.max(1, length))));
        long pos = position;
        long end = position + length;
        while (pos < end) {
            buf.clear().limit((int) Math.min(buf.capacity(), end - pos));
            int n = o.read(pos, buf);
            if (n <= 0) {
                throw new AssertionError("read of '" + o.key() + "' at " + pos + " returned " + n + " before offset " + end);
            }
            buf.flip();
            TestContent.assertMatches("'" + o.key() + "' read", seed, pos, buf);
            pos += n;
        }
    }

    /** Checks the bytes offered through {@link StoredObject#view}, if the engine lends memory. */
    public static boolean verifyViews(StoredObject o, long seed, long position, long length, int maxView) {
        long pos = position;
        long end = position + length;
        while (pos < end) {
            Optional<ByteBuffer> v = o.view(pos, (int) Math.min(maxView, end - pos));
            if (v.isEmpty()) {
                if (pos == position) {
                    return false;
                }
                throw new AssertionError("view of '" + o.key() + "' was offered at " + position + " but not at " + pos);
            }
            ByteBuffer b = v.get();
            if (!b.hasRemaining() || b.remaining() > maxView) {
                throw new AssertionError("view of '" + o.key() + "' at " + pos + " has " + b.remaining()
                        + " bytes; expected 1.." + maxView);
            }
            if (!b.isReadOnly()) {
                throw new AssertionError("view of '" + o.key() + "' must be read-only");
            }
            TestContent.assertMatches("'" + o.key() + "' view", seed, pos, b);
            pos += b.remaining();
        }
        return true;
    }

    /** Checks the bytes offered through {@link StoredObject#fileSlice}, if the engine keeps files. */
    public static boolean verifyFileSlices(StoredObject o, long seed, long position, long length, long maxSlice)
            throws IOException {
        long pos = position;
        long end = position + length;
        boolean any = false;
        while (pos < end) {
            Optional<FileSlice> s = o.fileSlice(pos, Math.min(maxSlice, end - pos));
            if (s.isEmpty()) {
                return any;
            }
            FileSlice slice = s.get();
            if (slice.length() <= 0 || slice.length() > Math.min(maxSlice, end - pos)) {
                throw new AssertionError("file slice of '" + o.key() + "' at " + pos + " has length " + slice.length());
            }
            FileChannel ch = slice.channel();
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(slice.length(), 256 * 1024));
            for (long done = 0; done < slice.length(); ) {
                buf.clear().limit((int) Math.min(buf.capacity(), slice.length() - done));
                int n = ch.read(buf, slice.position() + done);
                if (n <= 0) {
                    throw new AssertionError("file slice of '" + o.key() + "' at " + pos + " ends early in its file");
                }
                buf.flip();
                TestContent.assertMatches("'" + o.key() + "' file slice", seed, pos + done, buf);
                done += n;
            }
            pos += slice.length();
            any = true;
        }
        return any;
    }
}
