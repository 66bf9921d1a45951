package org.edgelab.origin.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.edgelab.transport.LoopTurns;

/**
 * Writes one response on its channel's event loop: waits out the first-byte delay (scheduled, never
 * blocking), writes the head, then streams the body segments in chunks of at most
 * {@link #CHUNK_SIZE} bytes, pausing while the channel is not writable and pacing to a bandwidth
 * cap; applies the reset-after and corrupt-at faults; sends a lone file range by zero copy.
 * Not thread-safe: every method runs on the channel's event loop.
 */
final class ResponseWriter {

    /** Largest body chunk generated or read at once. */
    static final int CHUNK_SIZE = 64 * 1024;
    /** The least a reset waits after the promised bytes were flushed, so the kernel sends them before the RST. */
    private static final long RESET_GRACE_MILLIS = 20;
    /** The longest a reset waits for the peer to acknowledge the promised bytes. */
    private static final long RESET_MAX_WAIT_MILLIS = 2000;
    /** Chunks written per event-loop turn before yielding, so one fast reader cannot starve the loop's other connections. */
    private static final int CHUNKS_PER_TURN = 16;
    private static final System.Logger LOG = System.getLogger(ResponseWriter.class.getName());

    /** A piece of the body: literal bytes (multipart headers, error text) or a range of the representation. */
    record Segment(byte[] literal, long offset, long length) {
        static Segment literal(byte[] bytes) {
            return new Segment(bytes, 0, bytes.length);
        }

        static Segment range(long offset, long length) {
            return new Segment(null, offset, length);
        }
    }

    /** How the body goes out. */
    record Delivery(long firstByteDelayNanos, long rateBytesPerSecond, long resetAfter, long corruptAt) {
        static final Delivery PLAIN = new Delivery(0, 0, -1, -1);
    }

    private final ChannelHandlerContext ctx;
    private final HttpResponse head;
    private final Representation representation;
    private final List<Segment> body;
    private final Delivery delivery;
    private final boolean keepAlive;
    private final OriginCounters counters; // null: not counted (the stats endpoint)
    private final Runnable onDone;

    private int segmentIndex;
    private long segmentDone;
    private long bodySent;
    private long bodyStartNanos;
    private boolean finished;
    private boolean streaming;
    private ScheduledFuture<?> timer;
    private boolean pumpQueued;
    private boolean pumping; // re-entrancy guard: a flush inside pump() may fire writability events

    ResponseWriter(ChannelHandlerContext ctx, HttpResponse head, Representation representation, List<Segment> body,
                   Delivery delivery, boolean keepAlive, OriginCounters counters, Runnable onDone) {
        this.ctx = ctx;
        this.head = head;
        this.representation = representation;
        this.body = body;
        this.delivery = delivery;
        this.keepAlive = keepAlive;
        this.counters = counters;
        this.onDone = onDone;
    }

    /** Begins the response, after the first-byte delay if there is one. */
    void start() {
        if (delivery.firstByteDelayNanos() > 0) {
            timer = ctx.executor().schedule(this::writeHead, delivery.firstByteDelayNanos(), TimeUnit.NANOSECONDS);
        } else {
            writeHead();
        }
    }

    /** Continues streaming; called when the channel became writable again. */
    void resume() {
        if (streaming && !finished && timer == null && !pumpQueued && !pumping) {
            pump();
        }
    }

    /** Stops for good (the channel closed); releases the representation. */
    void abort() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        finish();
    }

    private void writeHead() {
        timer = null;
        if (finished) {
            return;
        }
        if (!ctx.channel().isActive()) {
            abort();
            return;
        }
        if (counters != null) {
            counters.recordResponse(head.status().code());
        }
        ctx.write(head);
        if (body.isEmpty()) {
            if (delivery.resetAfter() >= 0) {
                ctx.flush();
                reset();
                return;
            }
            writeLast();
            return;
        }
        bodyStartNanos = System.nanoTime();
        streaming = true;
        try {
            if (zeroCopy()) {
                return;
            }
        } catch (IOException e) {
            fail(e);
            return;
        }
        pump();
    }

    /** Sends a lone file range as a DefaultFileRegion (sendfile) when no fault or pacing touches the bytes. */
    private boolean zeroCopy() throws IOException {
        if (body.size() != 1 || body.get(0).literal() != null || body.get(0).length() == 0 || representation == null
                || delivery.rateBytesPerSecond() > 0 || delivery.resetAfter() >= 0 || delivery.corruptAt() >= 0) {
            return false;
        }
        FileChannel file = representation.fileChannel();
        if (file == null) {
            return false;
        }
        Segment only = body.get(0);
        // The region does not own the channel: the representation closes it when the response ends.
        ctx.write(new DefaultFileRegion(file, only.offset(), only.length()) {
            @Override
            protected void deallocate() {
                // keep the file open: FileRepresentation.close() closes it
            }
        });
        if (counters != null) {
            counters.recordBytes(only.length());
        }
        bodySent = only.length();
        segmentIndex = 1;
        writeLast();
        return true;
    }

    private void pump() {
        timer = null;
        pumpQueued = false;
        pumping = true;
        try {
            pumpChunks();
        } finally {
            pumping = false;
        }
    }

    private void pumpChunks() {
        int chunks = 0;
        while (!finished) {
            if (!ctx.channel().isActive()) {
                abort();
                return;
            }
            if (!ctx.channel().isWritable()) {
                ctx.flush(); // may drain the buffer and fire the writability event while pumping: check again
                if (!ctx.channel().isWritable()) {
                    return; // resume() continues when the channel drains
                }
            }
            if (delivery.resetAfter() >= 0 && bodySent >= delivery.resetAfter()) {
                ctx.flush();
                reset();
                return;
            }
            if (segmentIndex == body.size()) {
                if (delivery.resetAfter() >= 0) {
                    ctx.flush();
                    reset();
                } else {
                    writeLast();
                }
                return;
            }
            if (chunks++ == CHUNKS_PER_TURN) {
                pumpQueued = true;
                LoopTurns.afterNextIo(ctx.executor(), this::pump);
                return;
            }
            Segment segment = body.get(segmentIndex);
            int n = (int) Math.min(CHUNK_SIZE, segment.length() - segmentDone);
            if (delivery.resetAfter() >= 0) {
                n = (int) Math.min(n, delivery.resetAfter() - bodySent);
            }
            long rate = delivery.rateBytesPerSecond();
            if (rate > 0) {
                n = (int) Math.max(1, Math.min(n, rate / 50));
                long due = bodyStartNanos + (long) ((bodySent + n) * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    ctx.flush();
                    timer = ctx.executor().schedule(this::pump, wait, TimeUnit.NANOSECONDS);
                    return;
                }
            }
            ByteBuf chunk;
            try {
                chunk = produce(segment, n);
            } catch (IOException | RuntimeException e) {
                fail(e);
                return;
            }
            segmentDone += n;
            if (segmentDone == segment.length()) {
                segmentIndex++;
                segmentDone = 0;
            }
            bodySent += n;
            if (counters != null) {
                counters.recordBytes(n);
            }
            ctx.writeAndFlush(new DefaultHttpContent(chunk)).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        }
    }

    private ByteBuf produce(Segment segment, int n) throws IOException {
        if (segment.literal() != null) {
            return Unpooled.wrappedBuffer(segment.literal(), (int) segmentDone, n);
        }
        long offset = segment.offset() + segmentDone;
        ByteBuf chunk = representation.read(ctx.alloc(), offset, n);
        long corruptAt = delivery.corruptAt();
        if (corruptAt >= offset && corruptAt < offset + n) {
            int index = chunk.readerIndex() + (int) (corruptAt - offset);
            chunk.setByte(index, ~chunk.getByte(index));
        }
        return chunk;
    }

    private void writeLast() {
        finished = true;
        streaming = false;
        ChannelFuture written = ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
        // A file region may still be in flight until the last write completes: close the file only then.
        written.addListener(f -> closeRepresentation());
        if (keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
            onDone.run();
        } else {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Resets the connection (RST, not FIN) once what was written has reached the peer. */
    private void reset() {
        finish();
        long since = System.nanoTime();
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> resetWhenDelivered(since));
    }

    /**
     * Closing with SO_LINGER 0 discards whatever the kernel has not yet delivered, so wait (polling,
     * never blocking the loop) until the peer acknowledged every sent segment (epoll reports it),
     * for at least {@link #RESET_GRACE_MILLIS} and at most {@link #RESET_MAX_WAIT_MILLIS}.
     */
    private void resetWhenDelivered(long since) {
        Channel channel = ctx.channel();
        if (!channel.isOpen()) {
            return;
        }
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
        boolean unacknowledged = channel instanceof EpollSocketChannel epoll && epoll.isActive() && epoll.tcpInfo().unacked() > 0;
        if (waitedMillis < RESET_GRACE_MILLIS || (unacknowledged && waitedMillis < RESET_MAX_WAIT_MILLIS)) {
            ctx.executor().schedule(() -> resetWhenDelivered(since), 2, TimeUnit.MILLISECONDS);
            return;
        }
        channel.config().setOption(ChannelOption.SO_LINGER, 0);
        channel.close();
    }

    private void fail(Throwable e) {
        LOG.log(Level.WARNING, "response body failed after " + bodySent + " bytes; closing the connection: " + e);
        finish();
        ctx.close();
    }

    private void finish() {
        finished = true;
        streaming = false;
        closeRepresentation();
    }

    private void closeRepresentation() {
        if (representation != null) {
            representation.close();
        }
    }
}
