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
import java.util.function.LongConsumer;
import org.edgelab.transport.LoopTurns;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.StoredObject;

/**
 * Sends byte ranges of a stored object (committed, or still being written and followed) to a client
 * channel at the client's pace: it writes while the channel is writable, resumes on writability,
 * and waits for bytes not written yet ({@link StoredObject#awaitLength}). Chunks go out zero-copy
 * where the engine allows: a file slice as a sendfile region, memory as a wrapped view, otherwise
 * a pooled buffer filled by {@link StoredObject#read}. The object must stay open until
 * {@code onDone} runs (views reference engine memory until written). Confined to the channel's event loop.
 */
final class BodyStreamer {

    /** One piece of the body: an optional prefix (owned, e.g. a multipart part header) then bytes [start, end) of the object ({@code end} -1: to the object's end). */
    record Part(ByteBuf prefix, long start, long end) {
    }

    /** Told once when the body was fully written (true) or abandoned (false). */
    interface Completion {
        void done(boolean complete);
    }

    static final int MAX_ZERO_COPY_CHUNK = 1 << 20;
    static final int COPY_CHUNK = 64 << 10;
    /**
     * Default bytes one response may write in one event-loop turn before it yields to the other
     * connections of its loop (like nginx's sendfile_max_chunk): on loopback a fast reader keeps
     * the channel writable, and without a cap one large response would run to its end while the
     * loop's other responses wait. The pump then continues after the loop's next I/O poll
     * ({@link LoopTurns}), so requests and origin bodies are read between turns. A turn lasts about
     * (connections on the loop) x budget / (loop's write rate), and every read on the loop waits up to
     * one turn, a miss several (origin connect, origin headers). 256 KiB cut 10 MB objects' TTFB p99
     * 6x at the same req/s but cost 1 MB objects a quarter of their req/s, so the default stays 2 MiB
     * (docs/BENCHMARKS.md, "How long an event-loop turn may write").
     */
    static final long DEFAULT_TURN_BUDGET = 2L << 20;

    private final Channel channel;
    private final StoredObject object;
    private final List<Part> parts;
    private final ByteBuf trailer;
    private final LongConsumer bytesSent;
    private final Completion completion;
    private final long turnBudget;
    private int partIndex;
    private boolean prefixSent;
    private long position;
    private boolean waiting;
    private boolean finished;
    private boolean pumping;
    private boolean repump;
    private long turnBytes;

    BodyStreamer(Channel channel, StoredObject object, List<Part> parts, ByteBuf trailer, LongConsumer bytesSent,
                 Completion completion) {
        this(channel, object, parts, trailer, bytesSent, completion, DEFAULT_TURN_BUDGET);
    }

    BodyStreamer(Channel channel, StoredObject object, List<Part> parts, ByteBuf trailer, LongConsumer bytesSent,
                 Completion completion, long turnBudget) {
        if (turnBudget <= 0) {
            throw new IllegalArgumentException("turn budget must be positive, got " + turnBudget);
        }
        this.turnBudget = turnBudget;
        this.channel = channel;
        this.object = object;
        this.parts = parts;
        this.trailer = trailer;
        this.bytesSent = bytesSent;
        this.completion = completion;
        this.position = parts.isEmpty() ? 0 : parts.get(0).start();
    }

    /**
     * Writes as much as the channel takes now; call again when it becomes writable. Re-entrant
     * calls (a write or flush firing a writability change) only ask the running pump to go on.
     */
    void pump() {
        if (finished || waiting) {
            return;
        }
        if (pumping) {
            repump = true;
            return;
        }
        pumping = true;
        turnBytes = 0;
        try {
            do {
                repump = false;
                pumpOnce();
            } while (repump && !finished && !waiting);
        } finally {
            pumping = false;
        }
    }

    private void pumpOnce() {
        try {
            while (channel.isWritable()) {
                if (partIndex == parts.size()) {
                    finishBody();
                    return;
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
                    long written = writeChunk(position, Math.min(end, available) - position);
                    position += written;
                    turnBytes += written;
                    if (turnBytes >= turnBudget) {
                        yieldTurn();
                        return;
                    }
                    continue;
                }
                if (complete) {
                    fail(new IOException("stored object " + object.key() + " ends at " + available
                            + ", before the announced end " + end));
                    return;
                }
                waiting = true;
                channel.flush();
                object.awaitLength(position + 1).whenComplete((n, err) -> channel.eventLoop().execute(() -> {
                    waiting = false;
                    if (err != null) {
                        fail(err);
                    } else {
                        pump();
                    }
                }));
                return;
            }
            channel.flush();
            // The flush may have drained the channel: go on without waiting for an event.
            repump |= channel.isWritable();
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
    }

    private void yieldTurn() {
        waiting = true;
        channel.flush();
        LoopTurns.afterNextIo(channel.eventLoop(), () -> {
            waiting = false;
            pump();
        });
    }

    private void nextPart() {
        partIndex++;
        prefixSent = false;
        if (partIndex < parts.size()) {
            position = parts.get(partIndex).start();
        }
    }

    private long writeChunk(long pos, long wanted) throws IOException {
        Optional<FileSlice> slice = object.fileSlice(pos, Math.min(wanted, MAX_ZERO_COPY_CHUNK));
        if (slice.isPresent()) {
            long n = slice.get().length();
            channel.write(new SliceFileRegion(slice.get()));
            bytesSent.accept(n);
            return n;
        }
        Optional<ByteBuffer> view = object.view(pos, (int) Math.min(wanted, MAX_ZERO_COPY_CHUNK));
        if (view.isPresent()) {
            ByteBuf buf = Unpooled.wrappedBuffer(view.get());
            int n = buf.readableBytes();
            channel.write(buf);
            bytesSent.accept(n);
            return n;
        }
        int size = (int) Math.min(wanted, COPY_CHUNK);
        ByteBuf buf = channel.alloc().directBuffer(size, size);
        try {
            int n = object.read(pos, buf.nioBuffer(0, size));
            if (n <= 0) {
                throw new IOException("stored object " + object.key() + " returned no bytes at " + pos);
            }
            buf.writerIndex(n);
            channel.write(buf);
            buf = null;
            bytesSent.accept(n);
            return n;
        } finally {
            if (buf != null) {
                buf.release();
            }
        }
    }

    private void finishBody() {
        finished = true;
        if (trailer != null) {
            channel.write(trailer.retain());
        }
        releaseUnsentPrefixes();
        ChannelFuture f = channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
        f.addListener(done -> completion.done(done.isSuccess()));
    }

    private void fail(Throwable cause) {
        if (finished) {
            return;
        }
        finished = true;
        releaseUnsentPrefixes();
        // A body cut short must never look complete: close the connection.
        channel.close().addListener(done -> completion.done(false));
    }

    /** Stops without writing more (the client went away); completion is told false. */
    void abandon() {
        if (!finished) {
            finished = true;
            releaseUnsentPrefixes();
            completion.done(false);
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
