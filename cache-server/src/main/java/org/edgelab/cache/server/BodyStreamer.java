package org.edgelab.cache.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.LongConsumer;
import org.edgelab.cache.store.LoopStore;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoredObject;

/**
 * Sends byte ranges of a stored object (committed, or still being written and followed) to a client
 * channel at the client's pace, in the slices its loop's {@link WriteScheduler} gives it: it writes
 * while the channel is writable, waits for writability and for bytes not written yet
 * ({@link StoredObject#awaitLength}). Chunks go out zero-copy where the engine allows it on the
 * loop: a file slice as a sendfile region, memory as a wrapped view, otherwise a pooled buffer
 * filled by {@link StoredObject#read} on the loop when reads never block, else read ahead on the
 * store's executor ({@link BodyReadAhead}). The object must stay open until {@code onDone} runs.
 * Confined to the channel's event loop.
 */
final class BodyStreamer {

    /** One piece of the body: an optional prefix (owned, e.g. a multipart part header) then bytes [start, end) of the object ({@code end} -1: to the object's end). */
    record Part(ByteBuf prefix, long start, long end) {
    }

    /** Told once when the body was fully written (true) or abandoned (false), when nothing reads the object any more. */
    interface Completion {
        void done(boolean complete);
    }

    static final int MAX_ZERO_COPY_CHUNK = 1 << 20;
    static final int COPY_CHUNK = 64 << 10;

    private final Channel channel;
    private final StoredObject object;
    private final List<Part> parts;
    private final ByteBuf trailer;
    private final LongConsumer bytesSent;
    private final Completion completion;
    private final WriteScheduler scheduler;
    private final LoopStore store;
    private final CompletionStage<Void> settled;
    private BodyReadAhead readAhead;
    private int partIndex;
    private boolean prefixSent;
    private long position;
    private boolean waiting;
    private boolean finished;
    /** Whether the scheduler holds this body in its ready queue (the scheduler's field). */
    boolean queued;

    BodyStreamer(Channel channel, StoredObject object, List<Part> parts, ByteBuf trailer, LongConsumer bytesSent,
                 Completion completion, WriteScheduler scheduler, LoopStore store) {
        this(channel, object, parts, trailer, bytesSent, completion, scheduler, store, null);
    }

    /** {@code settled}: when not null, the body ends only once it completes (a follower's fill is over). */
    BodyStreamer(Channel channel, StoredObject object, List<Part> parts, ByteBuf trailer, LongConsumer bytesSent,
                 Completion completion, WriteScheduler scheduler, LoopStore store, CompletionStage<Void> settled) {
        this.settled = settled;
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

    /** Starts the body after its head was written: now if the loop's turn has room, else in its turn. */
    void start() {
        scheduler.start(this);
    }

    /** Flushes what was written (the head) while the body waits for its turn. */
    void flushHead() {
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
                        channel.write(part.prefix().retain());
                        continue;
                    }
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
                    fail(new IOException("stored object " + object.key() + " ends at " + available
                            + ", before the announced end " + end));
                    break;
                }
                awaitBytes(position + 1);
                break;
            }
            if (!finished) {
                channel.flush();
            }
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
        return sent;
    }

    private void awaitBytes(long minLength) {
        waiting = true;
        object.awaitLength(minLength).whenComplete((n, err) -> channel.eventLoop().execute(() -> {
            waiting = false;
            if (finished) {
                return;
            }
            if (err != null) {
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
        channel.write(new SliceFileRegion(s));
        bytesSent.accept(s.length());
        return s.length();
    }

    private long writeBuffer(ByteBuf buf) {
        int n = buf.readableBytes();
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

    private void finishBody() {
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
        // A body cut short must never look complete: close the connection.
        channel.close().addListener(done -> whenIdle(() -> completion.done(false)));
    }

    /** Stops without writing more (the client went away); completion is told false. */
    void abandon() {
        if (!finished) {
            finished = true;
            releaseUnsentPrefixes();
            whenIdle(() -> completion.done(false));
        }
    }

    /** Runs {@code r} once no read ahead is in flight (the object may be closed then). */
    private void whenIdle(Runnable r) {
        if (readAhead == null) {
            r.run();
        } else {
            readAhead.close(r);
        }
    }

    private void releaseUnsentPrefixes() {
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
