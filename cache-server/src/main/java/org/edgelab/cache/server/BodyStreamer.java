package org.edgelab.cache.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.unix.Errors;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.edgelab.cache.fetch.BodyTail;
import org.edgelab.cache.store.LoopStore;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.WriteAbortedException;

/**
 * Sends byte ranges of a stored object (committed, or still being written and followed) to a client
 * channel at the client's pace, in the slices its loop's {@link WriteScheduler} gives it: it writes
 * while the channel is writable, waits for writability and for bytes not written yet
 * ({@link StoredObject#awaitLength}). Chunks go out zero-copy where the engine allows it on the
 * loop: a file slice as a sendfile region, memory as a wrapped view, otherwise a pooled buffer
 * filled by {@link StoredObject#read} on the loop when reads never block, else read ahead on the
 * store's read lane ({@link BodyReadAhead}). The object must stay open until {@code onDone} runs.
 *
 * <p>A follower of a fill whose store write fails mid-object reads what was written from the store
 * and, from the offset where its reads end ({@link WriteAbortedException}), the rest of the body
 * from the fill's {@link org.edgelab.cache.fetch.FillTail}, the origin's own bytes: the response ends whole and
 * byte-exact. A stored object whose bytes cannot be read once its response has begun (a disk that fails, an extent
 * found damaged) is finished the same way, from a {@link Resumer}'s range request to the origin, where one is given.
 *
 * <p>A sendfile region that fails is the exception: the engine lent the file and never sees the error, and Netty ends
 * the connection on it, so that reply is cut. Its bytes are then read back once through the engine, where its reads
 * may block: a failure there is judged as the engine's own read's (raw-log takes a failed disk out, raw-files drops a file
 * cut short), so the next requests miss instead of meeting it too. Confined to the channel's event loop.
 */
final class BodyStreamer {

    /** One piece of the body: an optional prefix (owned, e.g. a multipart part header) then bytes [start, end) of the object ({@code end} -1: to the object's end). */
    record Part(ByteBuf prefix, long start, long end) {
    }

    /**
     * Asks the origin for bytes {@code [from, to)} of the object when its stored bytes stop coming mid-response;
     * returns null when they cannot be asked for (no validator to make the request conditional on).
     */
    interface Resumer {
        BodyTail resume(long from, long to);
    }

    /** Told once when the body was fully written (true) or abandoned (false), when nothing reads the object any more. */
    interface Completion {
        void done(boolean complete);
    }

    static final int MAX_ZERO_COPY_CHUNK = 1 << 20;
    static final int COPY_CHUNK = 64 << 10;
    /** Buffer size of the read back through the engine of a sendfile region that failed. */
    static final int READ_BACK = 64 << 10;

    private static final System.Logger LOG = System.getLogger(BodyStreamer.class.getName());

    private final Channel channel;
    private final StoredObject object;
    private final List<Part> parts;
    private final ByteBuf trailer;
    private final LongConsumer bytesSent;
    private final Completion completion;
    private final WriteScheduler scheduler;
    private final LoopStore store;
    private final CompletionStage<Void> settled;
    /** Where bytes come from once the stored ones stop: a follower's fill tail, or a resumed hit's origin range. */
    private BodyTail tail;
    private Resumer resumer;
    /** A tail this streamer asked for (a resumed hit), closed when the body ends. */
    private BodyTail ownedTail;
    private BodyReadAhead readAhead;
    /** The store write failed: bytes from {@link #tailFrom} on come from the tail. */
    private boolean tailMode;
    private long tailFrom;
    /** The body offset of the next byte the tail gives ({@code tailPiece}'s reader index), -1 before the first. */
    private long tailPos = -1;
    private ByteBuf tailPiece;
    private int partIndex;
    private boolean prefixSent;
    private long position;
    private boolean waiting;
    private boolean finished;
    /** Writes the response head, while it is held until the first body bytes are in hand; null once written or when not held. */
    private Runnable heldHead;
    /** Told, instead of the completion, when the body's first bytes cannot be had while the head is held. */
    private Consumer<Throwable> unreadable;
    /** Whether a failed sendfile region's bytes were read back through the engine (once per body). */
    private boolean readBackAsked;
    /** Run once that read back is over, instead of when it is asked for: the object must stay open for it. */
    private Runnable afterReadBack;
    private boolean readingBack;
    /** Whether the scheduler holds this body in its ready queue (the scheduler's field). */
    boolean queued;

    BodyStreamer(Channel channel, StoredObject object, List<Part> parts, ByteBuf trailer, LongConsumer bytesSent,
                 Completion completion, WriteScheduler scheduler, LoopStore store) {
        this(channel, object, parts, trailer, bytesSent, completion, scheduler, store, null, null);
    }

    /**
     * {@code settled}: when not null, the body ends only once it completes (a follower's fill is
     * over); {@code tail}: a follower's rest of the body should its fill's store write fail, or null.
     * The streamer reads the tail but does not close it.
     */
    BodyStreamer(Channel channel, StoredObject object, List<Part> parts, ByteBuf trailer, LongConsumer bytesSent,
                 Completion completion, WriteScheduler scheduler, LoopStore store, CompletionStage<Void> settled,
                 BodyTail tail) {
        this.settled = settled;
        this.tail = tail;
        this.channel = channel;
        this.object = object;
        this.parts = parts;
        this.trailer = trailer;
        this.bytesSent = bytesSent;
        this.completion = completion;
        this.scheduler = scheduler;
        this.store = store;
        this.position = parts.isEmpty() ? 0 : parts.get(0).start();
    }

    /**
     * Holds the response head until the first body bytes are in hand (before {@link #start}, instead
     * of the caller writing it): {@code writeHead} writes it just before them. Should those bytes
     * fail to come (a stored object found damaged), nothing was sent and {@code unreadable} is told
     * why, once no read is in flight, instead of the completion, so the caller can answer otherwise.
     * Should the loop's turn be full at {@link #start}, the head goes out at once as before.
     */
    void holdHead(Runnable writeHead, Consumer<Throwable> unreadable) {
        this.heldHead = writeHead;
        this.unreadable = unreadable;
    }

    /**
     * Lets a stored object's body, once its head is out, finish from the origin should its stored bytes fail
     * (before {@link #start}; a single part only: a multipart response is cut as before).
     */
    void resumeWith(Resumer r) {
        this.resumer = r;
    }

    /** Whether the body's rest came from the origin after its stored bytes failed. */
    boolean resumed() {
        return ownedTail != null;
    }

    /** Starts the body after its head was written (or held): now if the loop's turn has room, else in its turn. */
    void start() {
        scheduler.start(this);
    }

    /** Flushes what was written (the head) while the body waits for its turn. */
    void flushHead() {
        writeHeldHead();
        channel.flush();
    }

    /** Whether the body could write now (not done, not waiting for bytes, channel writable). */
    boolean wantsToWrite() {
        return !finished && !waiting && channel.isWritable();
    }

    /** The channel's writability changed: take a turn again if it can write. */
    void writabilityChanged() {
        if (wantsToWrite()) {
            scheduler.ready(this);
        }
    }

    /** Writes up to about {@code max} body bytes (one chunk may run over) and flushes; returns the bytes written. */
    long writeSlice(long max) {
        long sent = 0;
        try {
            while (!finished && !waiting && channel.isWritable() && sent < max) {
                if (partIndex == parts.size()) {
                    if (tailMode) {
                        finishBody(); // every byte of the response is out; nothing will be stored
                        break;
                    }
                    if (!object.isComplete()) {
                        // Every byte is out, but the fill is not committed: end the response only once it is,
                        // so a client never takes a response for whole whose object the store then drops.
                        awaitBytes(Long.MAX_VALUE);
                        break;
                    }
                    if (settled != null && !settled.toCompletableFuture().isDone()) {
                        waiting = true;
                        settled.whenComplete((v, err) -> channel.eventLoop().execute(() -> {
                            waiting = false;
                            writabilityChanged();
                        }));
                        break;
                    }
                    finishBody();
                    break;
                }
                Part part = parts.get(partIndex);
                if (!prefixSent) {
                    prefixSent = true;
                    if (part.prefix() != null) {
                        writeHeldHead();
                        channel.write(part.prefix().retain());
                        continue;
                    }
                }
                if (tailMode && position >= tailFrom) {
                    long written = writeFromTail(part.end());
                    if (written < 0) {
                        nextPart();
                        continue;
                    }
                    if (written == 0) {
                        break; // waiting for the tail
                    }
                    position += written;
                    sent += written;
                    continue;
                }
                boolean complete = object.isComplete();
                long available = object.availableLength();
                long end = part.end() >= 0 ? part.end() : (complete ? available : Long.MAX_VALUE);
                if (position >= end) {
                    nextPart();
                    continue;
                }
                if (position < available) {
                    long written = writeChunk(position, Math.min(end, available) - position, Math.min(end, available));
                    if (written == 0) {
                        waiting = true; // read ahead: the bytes are on their way
                        break;
                    }
                    position += written;
                    sent += written;
                    continue;
                }
                if (complete) {
                    IOException early = new IOException("stored object " + object.key() + " ends at " + available
                            + ", before the announced end " + end);
                    if (!resume(early)) {
                        fail(early);
                    }
                    break;
                }
                awaitBytes(position + 1);
                break;
            }
            if (!finished) {
                channel.flush();
            }
        } catch (IOException | RuntimeException e) {
            if (!enterTail(e) && !resume(e)) {
                fail(e);
            }
        }
        return sent;
    }

    /**
     * The followed write was aborted ({@code cause} is or wraps {@link WriteAbortedException}) and
     * a tail can carry the rest: from the current position on, bytes come from the tail. Returns
     * false when the failure is another one, or there is no tail.
     */
    private boolean enterTail(Throwable cause) {
        if (tail == null || tailMode || finished) {
            return false;
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof WriteAbortedException) {
                tailMode = true;
                tailFrom = position;
                return true;
            }
        }
        return false;
    }

    /**
     * The stored bytes failed ({@code cause}, an I/O error) after the head went out: asks the {@link Resumer} for the
     * rest of the single part from the current position, and reads it as a tail. Returns false when there is no
     * resumer, the failure is not an I/O error, nothing was sent yet (the caller answers otherwise), the response has
     * several parts, or the origin cannot be asked.
     */
    private boolean resume(Throwable cause) {
        if (resumer == null || tailMode || finished || heldHead != null || !(cause instanceof IOException)
                || parts.size() != 1 || parts.get(0).end() < 0 || position >= parts.get(0).end()) {
            return false;
        }
        BodyTail t = resumer.resume(position, parts.get(0).end());
        if (t == null) {
            return false;
        }
        tail = t;
        ownedTail = t;
        tailMode = true;
        tailFrom = position;
        tailPos = -1;
        return true;
    }

    /**
     * Writes the next bytes of the current part from the tail; returns how many, 0 when it waits
     * for the tail (or failed), or -1 when the part is done (its end, or the end of a body of
     * unknown length).
     */
    private long writeFromTail(long partEnd) throws IOException {
        if (partEnd >= 0 && position >= partEnd) {
            return -1;
        }
        long seen = tail.version();
        if (!tail.isActive()) {
            failIfTailFailed();
            awaitTail(seen); // the fill has not handed its tail over yet
            return 0;
        }
        if (tailPos < 0) {
            tailPos = tail.start();
        }
        while (true) {
            if (tailPiece == null) {
                tailPiece = tail.poll();
                if (tailPiece == null) {
                    long end = tail.end();
                    if (end >= 0 && tailPos >= end) {
                        if (partEnd < 0) {
                            return -1;
                        }
                        throw new IOException("the origin's body of " + object.key() + " ended at " + end
                                + ", before the announced end " + partEnd);
                    }
                    failIfTailFailed();
                    awaitTail(seen);
                    return 0;
                }
            }
            if (position < tailPos) {
                throw new IOException("the bytes of " + object.key() + " at " + position
                        + " are neither stored nor held any more (a range before another)");
            }
            int skip = (int) Math.min(tailPiece.readableBytes(), position - tailPos);
            tailPiece.skipBytes(skip);
            tailPos += skip;
            if (!tailPiece.isReadable()) {
                tailPiece.release();
                tailPiece = null;
                continue;
            }
            long wanted = partEnd >= 0 ? partEnd - position : Long.MAX_VALUE;
            int n = (int) Math.min(tailPiece.readableBytes(), Math.min(wanted, MAX_ZERO_COPY_CHUNK));
            ByteBuf out = tailPiece.readRetainedSlice(n);
            tailPos += n;
            if (!tailPiece.isReadable()) {
                tailPiece.release();
                tailPiece = null;
            }
            return writeBuffer(out);
        }
    }

    private void failIfTailFailed() throws IOException {
        Throwable f = tail.failure();
        if (f != null) {
            throw f instanceof IOException io ? io : new IOException("the rest of the body cannot come", f);
        }
    }

    private void awaitTail(long seen) {
        waiting = true;
        tail.whenChangedSince(seen, () -> channel.eventLoop().execute(() -> {
            waiting = false;
            if (!finished) {
                writabilityChanged();
            }
        }));
    }

    private void awaitBytes(long minLength) {
        waiting = true;
        object.awaitLength(minLength).whenComplete((n, err) -> channel.eventLoop().execute(() -> {
            waiting = false;
            if (finished) {
                return;
            }
            if (err != null && !enterTail(err)) {
                fail(err);
            } else {
                writabilityChanged();
            }
        }));
    }

    private void nextPart() {
        partIndex++;
        prefixSent = false;
        if (partIndex < parts.size()) {
            position = parts.get(partIndex).start();
        }
    }

    /** Writes one chunk at {@code pos}; returns its length, or 0 when it is being read ahead. */
    private long writeChunk(long pos, long wanted, long limit) throws IOException {
        if (!store.blocks(StoreCall.FILE_SLICE)) {
            Optional<FileSlice> slice = object.fileSlice(pos, Math.min(wanted, MAX_ZERO_COPY_CHUNK));
            if (slice.isPresent()) {
                return writeSlice(slice.get());
            }
        }
        if (!store.blocks(StoreCall.VIEW)) {
            Optional<ByteBuffer> view = object.view(pos, (int) Math.min(wanted, MAX_ZERO_COPY_CHUNK));
            if (view.isPresent()) {
                return writeBuffer(Unpooled.wrappedBuffer(view.get()));
            }
        }
        if (!store.blocks(StoreCall.READ)) {
            int size = (int) Math.min(wanted, COPY_CHUNK);
            ByteBuf buf = channel.alloc().directBuffer(size, size);
            try {
                int n = object.read(pos, buf.nioBuffer(0, size));
                if (n <= 0) {
                    throw new IOException("stored object " + object.key() + " returned no bytes at " + pos);
                }
                buf.writerIndex(n);
                ByteBuf out = buf;
                buf = null;
                return writeBuffer(out);
            } finally {
                if (buf != null) {
                    buf.release();
                }
            }
        }
        if (readAhead == null) {
            readAhead = new BodyReadAhead(store, object, channel.eventLoop(), channel.alloc(), this::readAheadArrived);
        }
        Object piece = readAhead.take(pos, limit);
        if (piece == null) {
            return 0;
        }
        return piece instanceof FileSlice s ? writeSlice(s) : writeBuffer((ByteBuf) piece);
    }

    private long writeSlice(FileSlice s) {
        writeHeldHead();
        SliceFileRegion region = new SliceFileRegion(s);
        long at = position;
        channel.write(region).addListener(f -> {
            if (!f.isSuccess()) {
                sliceFailed(at + region.transferred(), at + region.count(), f.cause());
            }
        });
        bytesSent.accept(s.length());
        return s.length();
    }

    /**
     * A sendfile region failed with body bytes {@code [from, to)} unsent: unless the client went away, the error may
     * be the file's (a device error where the transfer stopped, or a file cut short anywhere in what was left: Netty
     * checks the file's length against the whole rest of the region). Reads those bytes back through the engine, so
     * that it sees a failure of its file itself. Once per body; the object stays open until the read is over
     * ({@link #whenIdle}).
     */
    private void sliceFailed(long from, long to, Throwable cause) {
        if (readBackAsked || !(cause instanceof IOException) || clientWentAway(cause)) {
            return;
        }
        readBackAsked = true;
        readingBack = true;
        store.call(StoreCall.READ, channel.eventLoop(), () -> readBack(from, to), (n, err) -> {
            readingBack = false;
            if (err != null) {
                LOG.log(System.Logger.Level.WARNING, "sendfile of stored object {0} failed at byte {1} ({2}), and"
                        + " reading its bytes back through the engine failed too: {3}", object.key(), String.valueOf(from),
                        cause, err);
            }
            Runnable r = afterReadBack;
            afterReadBack = null;
            if (r != null) {
                whenIdle(r);
            }
        });
    }

    private long writeBuffer(ByteBuf buf) {
        int n = buf.readableBytes();
        writeHeldHead();
        channel.write(buf);
        bytesSent.accept(n);
        return n;
    }

    private void readAheadArrived() {
        if (waiting && !finished) {
            waiting = false;
            writabilityChanged();
        }
    }

    private void writeHeldHead() {
        Runnable h = heldHead;
        if (h != null) {
            heldHead = null;
            h.run();
        }
    }

    private void finishBody() {
        writeHeldHead();
        finished = true;
        if (trailer != null) {
            channel.write(trailer.retain());
        }
        releaseUnsentPrefixes();
        ChannelFuture f = channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
        f.addListener(done -> whenIdle(() -> completion.done(done.isSuccess())));
    }

    private void fail(Throwable cause) {
        if (finished) {
            return;
        }
        finished = true;
        releaseUnsentPrefixes();
        if (heldHead != null && unreadable != null) {
            heldHead = null; // nothing went out: the caller answers otherwise
            whenIdle(() -> unreadable.accept(cause));
            return;
        }
        // A body cut short must never look complete: close the connection.
        channel.close().addListener(done -> whenIdle(() -> completion.done(false)));
    }

    /**
     * Whether every body byte of every part was written and flushed, with no closing trailer left
     * to write: what is left of the response is only its end (the fill's commit, which it waits
     * for). A client that closes now has had the whole body of a Content-Length response.
     */
    boolean everyByteWritten() {
        return partIndex == parts.size() && trailer == null;
    }

    /** Stops without writing more (the client went away); completion is told false. */
    void abandon() {
        if (!finished) {
            finished = true;
            releaseUnsentPrefixes();
            whenIdle(() -> completion.done(false));
        }
    }

    /** Whether a write failed on the client's side of the socket (closed, reset, broken pipe), not on a file. */
    private static boolean clientWentAway(Throwable cause) {
        return cause instanceof ClosedChannelException
                || cause instanceof Errors.NativeIoException n && (n.expectedErr() == Errors.ERRNO_EPIPE_NEGATIVE
                        || n.expectedErr() == Errors.ERRNO_ECONNRESET_NEGATIVE);
    }

    /** Reads body bytes {@code [from, to)} through the engine (on its executor where reads block); returns how many. */
    private long readBack(long from, long to) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate((int) Math.min(READ_BACK, to - from));
        long pos = from;
        while (pos < to) {
            bytes.clear().limit((int) Math.min(bytes.capacity(), to - pos));
            int n = object.read(pos, bytes);
            if (n <= 0) {
                break;
            }
            pos += n;
        }
        return pos - from;
    }

    /** Runs {@code r} once no read ahead or read back is in flight (the object may be closed then). */
    private void whenIdle(Runnable r) {
        if (readingBack) {
            afterReadBack = r; // the body ends once, so there is one such runnable
            return;
        }
        if (readAhead == null) {
            r.run();
        } else {
            readAhead.close(r);
        }
    }

    private void releaseUnsentPrefixes() {
        if (tailPiece != null) {
            tailPiece.release();
            tailPiece = null;
        }
        if (ownedTail != null) {
            ownedTail.close();
        }
        for (Part p : parts) {
            if (p.prefix() != null && p.prefix().refCnt() > 0) {
                p.prefix().release();
            }
        }
        if (trailer != null && trailer.refCnt() > 0) {
            trailer.release();
        }
    }
}
