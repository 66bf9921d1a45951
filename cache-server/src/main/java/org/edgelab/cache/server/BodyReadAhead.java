package org.edgelab.cache.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Optional;
import org.edgelab.cache.store.LoopStore;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoredObject;

/**
 * Reads a body ahead of the socket on the store's read lane, for engines whose reads may block:
 * up to {@link #DEPTH} pieces of up to {@link #CHUNK} bytes wait ready, each a pooled direct
 * buffer filled by {@link StoredObject#read} or, where the engine offers one, a file slice obtained
 * there with its bytes brought into memory (its sendfile stays on the loop, and copies memory). So
 * no {@code read(2)} of the device and no page fault of a memory map happens on the loop. One read is in flight at a time; the object must stay open until
 * {@link #close} has run its {@code whenIdle}. Confined to the loop.
 */
final class BodyReadAhead {

    /** Bytes per piece: 256 KiB, lmdb's default value size and four of the 64 KiB reads the copy path made before. */
    static final int CHUNK = 256 << 10;
    /** Pieces kept ready: two, one being written while the next is read. */
    static final int DEPTH = 2;

    private record Piece(long position, ByteBuf buf, FileSlice slice) {
        long length() {
            return buf != null ? buf.readableBytes() : slice.length();
        }

        void release() {
            if (buf != null) {
                buf.release();
            }
        }
    }

    private final LoopStore store;
    private final StoredObject object;
    private final EventLoop loop;
    private final ByteBufAllocator alloc;
    private final Runnable onReady;
    private final ArrayDeque<Piece> ready = new ArrayDeque<>(DEPTH);
    private long expected = -1;
    private long nextRead;
    private long limit;
    private long generation;
    private boolean inFlight;
    private boolean closed;
    private Runnable whenIdle;
    private Throwable failure;

    /** {@code onReady} runs on the loop whenever a piece (or a failure) arrives. */
    BodyReadAhead(LoopStore store, StoredObject object, EventLoop loop, ByteBufAllocator alloc, Runnable onReady) {
        this.store = store;
        this.object = object;
        this.loop = loop;
        this.alloc = alloc;
        this.onReady = onReady;
    }

    /**
     * Returns the piece that starts at {@code position} (no longer than {@code limit - position}) as
     * a message to write: a {@link ByteBuf} or a {@link FileSlice}; or null when it is still being
     * read, and {@code onReady} runs once it is there. Reading ahead stops at {@code limit}.
     *
     * @throws IOException when a read ahead failed
     */
    Object take(long position, long limit) throws IOException {
        if (failure != null) {
            throw failure instanceof IOException io ? io : new IOException("read ahead failed", failure);
        }
        if (position != expected) {
            restart(position);
        }
        this.limit = limit;
        Piece p = ready.pollFirst();
        if (p != null && p.position() + p.length() > limit) {
            // the piece runs past what may be sent now (cannot happen for a fixed limit): read again
            p.release();
            restart(position);
            p = null;
        }
        if (p != null) {
            expected = p.position() + p.length();
        }
        fill();
        return p == null ? null : (p.buf() != null ? p.buf() : p.slice());
    }

    private void restart(long position) {
        generation++;
        releaseReady();
        expected = position;
        nextRead = position;
    }

    private void fill() {
        if (inFlight || closed || ready.size() >= DEPTH || nextRead >= limit) {
            return;
        }
        inFlight = true;
        long at = nextRead;
        int len = (int) Math.min(CHUNK, limit - at);
        long sliceLen = Math.min(BodyStreamer.MAX_ZERO_COPY_CHUNK, limit - at);
        long gen = generation;
        store.call(StoreCall.READ, StoreCall.FILE_SLICE, loop, () -> readPiece(at, len, sliceLen), (piece, err) -> {
            inFlight = false;
            if (closed || gen != generation) {
                if (piece != null) {
                    piece.release();
                }
                if (closed) {
                    idle();
                    return;
                }
            } else if (err != null) {
                failure = err;
            } else {
                ready.addLast(piece);
                nextRead = at + piece.length();
            }
            fill();
            onReady.run();
        });
    }

    /** Runs on the executor: a file slice where the engine offers one, else a pooled buffer filled by reads. */
    private Piece readPiece(long at, int len, long sliceLen) throws IOException {
        if (store.blocks(StoreCall.FILE_SLICE)) {
            Optional<FileSlice> slice = object.fileSlice(at, sliceLen);
            if (slice.isPresent()) {
                return new Piece(at, null, slice.get());
            }
        }
        ByteBuf buf = alloc.directBuffer(len, len);
        try {
            int filled = 0;
            while (filled < len) {
                int n = object.read(at + filled, buf.nioBuffer(filled, len - filled));
                if (n <= 0) {
                    break;
                }
                filled += n;
            }
            if (filled == 0) {
                throw new IOException("stored object " + object.key() + " returned no bytes at " + at);
            }
            buf.writerIndex(filled);
            Piece p = new Piece(at, buf, null);
            buf = null;
            return p;
        } finally {
            if (buf != null) {
                buf.release();
            }
        }
    }

    /** Stops reading ahead, releases what was read, and runs {@code whenIdle} once no read is in flight. */
    void close(Runnable whenIdle) {
        closed = true;
        releaseReady();
        this.whenIdle = whenIdle;
        if (!inFlight) {
            idle();
        }
    }

    private void idle() {
        Runnable r = whenIdle;
        whenIdle = null;
        if (r != null) {
            r.run();
        }
    }

    private void releaseReady() {
        Piece p;
        while ((p = ready.pollFirst()) != null) {
            p.release();
        }
    }
}
