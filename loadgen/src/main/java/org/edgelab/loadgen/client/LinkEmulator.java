package org.edgelab.loadgen.client;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import org.edgelab.loadgen.LinkEmulation;

/**
 * Emulates a link in user space on one connection: incoming bytes leave the emulated link no faster than
 * the bandwidth cap (each read is held until its last bit would have arrived) and each direction is
 * delayed by the one-way latency. While more than the link could hold in flight (twice rate x latency,
 * plus 256 KiB; 16 MiB when only latency is emulated) is held, reading from the socket pauses (autoRead
 * off), so the server sees the slow link as TCP back-pressure. Connection setup and
 * the upload bandwidth are not emulated; bytes still held when the connection closes are delivered at once.
 *
 * <p>Thread-safety: confined to its channel's event loop.
 */
final class LinkEmulator extends ChannelDuplexHandler {
    private static final long MIN_BACKLOG_BYTES = 256 * 1024;
    private static final long UNCAPPED_BACKLOG_BYTES = 16L << 20;

    private final double nanosPerByte;
    private final long latencyNanos;
    private final long maxBacklog;
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private final ArrayDeque<long[]> heldTimes = new ArrayDeque<>();
    private long linkFreeAt;
    private long backlog;
    private boolean drainScheduled;
    private boolean removed;
    private ChannelHandlerContext ctx;

    LinkEmulator(LinkEmulation link) {
        this.nanosPerByte = link.bitsPerSecond() == 0 ? 0 : 8e9 / link.bitsPerSecond();
        this.latencyNanos = link.oneWayLatency().toNanos();
        // The link itself holds rate x latency bytes in flight; pausing reads below that would cap the rate.
        if (link.bitsPerSecond() > 0) {
            double inFlight = link.bitsPerSecond() / 8.0 * (latencyNanos / 1e9);
            this.maxBacklog = MIN_BACKLOG_BYTES + (long) (2 * inFlight);
        } else {
            this.maxBacklog = latencyNanos > 0 ? UNCAPPED_BACKLOG_BYTES : MIN_BACKLOG_BYTES;
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        long now = System.nanoTime();
        int bytes = msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
        long departs = Math.max(now, linkFreeAt) + (long) (bytes * nanosPerByte);
        linkFreeAt = departs;
        long deliverAt = departs + latencyNanos;
        if (held.isEmpty() && deliverAt <= now) {
            ctx.fireChannelRead(msg);
            return;
        }
        held.add(msg);
        heldTimes.add(new long[] {deliverAt, bytes});
        backlog += bytes;
        if (backlog > maxBacklog) {
            ctx.channel().config().setAutoRead(false);
        }
        scheduleDrain(now);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (held.isEmpty()) {
            ctx.fireChannelReadComplete();
        }
    }

    private void scheduleDrain(long now) {
        if (drainScheduled || heldTimes.isEmpty()) {
            return;
        }
        drainScheduled = true;
        ctx.executor().schedule(this::drain, Math.max(0, heldTimes.peek()[0] - now), TimeUnit.NANOSECONDS);
    }

    private void drain() {
        drainScheduled = false;
        if (removed) {
            return;
        }
        long now = System.nanoTime();
        boolean delivered = false;
        while (!heldTimes.isEmpty() && heldTimes.peek()[0] <= now) {
            long[] t = heldTimes.poll();
            backlog -= t[1];
            delivered = true;
            ctx.fireChannelRead(held.poll());
        }
        if (delivered) {
            ctx.fireChannelReadComplete();
        }
        if (backlog <= maxBacklog / 2 && ctx.channel().isActive() && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
        scheduleDrain(now);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (latencyNanos == 0) {
            ctx.write(msg, promise);
            return;
        }
        ctx.executor().schedule(() -> {
            ctx.writeAndFlush(msg, promise);
        }, latencyNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (latencyNanos == 0) {
            ctx.flush();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // The pipeline is torn down right after this event, so what the link still carries arrives now.
        boolean delivered = !held.isEmpty();
        while (!held.isEmpty()) {
            heldTimes.poll();
            ctx.fireChannelRead(held.poll());
        }
        backlog = 0;
        if (delivered) {
            ctx.fireChannelReadComplete();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        removed = true;
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.poll());
        }
        heldTimes.clear();
    }
}
