package org.edgelab.loadgen.link;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import org.edgelab.loadgen.LinkEmulation;

/**
 * A link emulated in user space on the client's sockets, shared by every connection of a load: one pacer per
 * direction gives each read (responses) and each write (requests) the time its last byte would leave a link
 * of the capped rate that all connections queue on, and the bytes reach the connection (or the socket) the
 * one-way delay after that. When the link's queue holds more than {@link #queueNanos} of traffic, a
 * connection that reads stops reading from its socket until its bytes have nearly left the link, so the
 * kernel's receive buffer fills, TCP's window closes and the server sees a slow reader, as behind a real
 * bottleneck.
 *
 * <p>What it does not emulate: the delay is added above the sockets, so TCP's own round-trip time (window
 * growth, slow start) stays that of loopback; connection setup is not delayed; bytes still held when a
 * connection closes reach it at once; and each connection may read one receive buffer (up to 256 KiB) beyond
 * the queue limit before it pauses, so with many connections the queue, and a first byte's wait in it, grows
 * towards connections x 256 KiB (a deep router buffer, where TCP would keep the excess in the server's
 * socket). The long-run rate stays the cap. The kernel emulator, where available, has none of these limits.
 *
 * <p>Thread-safety: the pacers are lock-free (one compare-and-set per read or write) and shared by every
 * event loop; each connection's handler is confined to its channel's loop.
 */
final class UserSpaceLink implements Link {
    /** The most a connection holds (read but not yet delivered) before it stops reading, with a rate cap. */
    private static final long MIN_HELD_BYTES = 256 * 1024;
    /** The same with only a delay: the delay alone does not slow reads, so bound what it holds. */
    private static final long UNCAPPED_HELD_BYTES = 16L << 20;
    /** The link's queue, in bytes, beyond which readers pause (at least 1 ms of traffic). */
    private static final long QUEUE_BYTES = 512 * 1024;

    private final LinkEmulation spec;
    private final Pacer down;
    private final Pacer up;
    private final long delayNanos;
    private final long queueNanos;
    private final long maxHeldBytes;
    private final LongAdder bytesDown = new LongAdder();
    private final LongAdder bytesUp = new LongAdder();
    private volatile boolean closed;

    UserSpaceLink(LinkEmulation spec) {
        this.spec = spec;
        long now = System.nanoTime();
        this.down = spec.bitsPerSecond() > 0 ? new Pacer(spec.bitsPerSecond(), now) : null;
        this.up = spec.bitsPerSecond() > 0 ? new Pacer(spec.bitsPerSecond(), now) : null;
        this.delayNanos = spec.oneWayLatency().toNanos();
        this.queueNanos = down == null ? 0 : Math.max(TimeUnit.MILLISECONDS.toNanos(1), down.nanosFor(QUEUE_BYTES));
        // what is in flight on the link (rate x delay) plus its queue must fit, or the cap would shrink the rate
        this.maxHeldBytes = spec.bitsPerSecond() > 0
                ? MIN_HELD_BYTES + 2 * (long) (spec.bitsPerSecond() / 8.0 * ((delayNanos + queueNanos) / 1e9))
                : UNCAPPED_HELD_BYTES;
    }

    @Override
    public String emulation() {
        return UserSpaceLinkEmulator.NAME;
    }

    @Override
    public void attach(Channel channel) {
        if (!closed) {
            channel.pipeline().addFirst("link", new Crossing());
        }
    }

    @Override
    public long bytesDown() {
        return bytesDown.sum();
    }

    @Override
    public long bytesUp() {
        return bytesUp.sum();
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return spec.describe();
    }

    /**
     * One direction's capped rate shared by every connection: a virtual clock of when the link is next free.
     * Lock-free and thread-safe.
     */
    static final class Pacer {
        private final double nanosPerByte;
        private final AtomicLong freeAt;

        Pacer(long bitsPerSecond, long now) {
            this.nanosPerByte = 8e9 / bitsPerSecond;
            this.freeAt = new AtomicLong(now);
        }

        long nanosFor(long bytes) {
            return (long) Math.ceil(bytes * nanosPerByte);
        }

        /** Queues {@code bytes} arriving at {@code now}; returns when their last byte leaves the link. */
        long depart(long now, int bytes) {
            long cost = nanosFor(bytes);
            while (true) {
                long prev = freeAt.get();
                long next = (prev - now > 0 ? prev : now) + cost;
                if (freeAt.compareAndSet(prev, next)) {
                    return next;
                }
            }
        }
    }

    /** A read waiting for its bytes to reach the connection. */
    private record Held(Object message, long deliverAt, int bytes) {
    }

    /** One connection's crossing of the link; confined to its channel's event loop. */
    private final class Crossing extends ChannelDuplexHandler {
        private final ArrayDeque<Held> held = new ArrayDeque<>();
        private ChannelHandlerContext ctx;
        private long heldBytes;
        private long lastDeparture;
        private boolean pacingPause;
        private boolean holdPause;
        private boolean drainScheduled;
        private boolean removed;
        private int scheduledWrites;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            int bytes = msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
            long now = System.nanoTime();
            long departs = down == null ? now : down.depart(now, bytes);
            long deliverAt = departs + delayNanos;
            if (held.isEmpty() && deliverAt - now <= 0) {
                bytesDown.add(bytes);
                ctx.fireChannelRead(msg);
            } else {
                held.add(new Held(msg, deliverAt, bytes));
                heldBytes += bytes;
                scheduleDrain(now);
                if (heldBytes > maxHeldBytes && !holdPause) {
                    holdPause = true;
                    updateAutoRead();
                }
            }
            if (down != null) {
                lastDeparture = departs;
                if (departs - now > queueNanos && !pacingPause) {
                    pacingPause = true; // the link is busy: let TCP's window close until our bytes have nearly left
                    updateAutoRead();
                    ctx.executor().schedule(this::endPacingPause, departs - queueNanos - now, TimeUnit.NANOSECONDS);
                }
            }
        }

        private void endPacingPause() {
            if (removed) {
                return;
            }
            long wait = lastDeparture - queueNanos - System.nanoTime();
            if (wait > 0) { // reads that were under way when the pause began pushed our departure later
                ctx.executor().schedule(this::endPacingPause, wait, TimeUnit.NANOSECONDS);
                return;
            }
            pacingPause = false;
            updateAutoRead();
        }

        private void updateAutoRead() {
            Channel ch = ctx.channel();
            boolean read = !pacingPause && !holdPause;
            if (ch.isActive() && ch.config().isAutoRead() != read) {
                ch.config().setAutoRead(read);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (held.isEmpty()) {
                ctx.fireChannelReadComplete();
            }
        }

        private void scheduleDrain(long now) {
            if (drainScheduled || held.isEmpty()) {
                return;
            }
            drainScheduled = true;
            ctx.executor().schedule(this::drain, Math.max(0, held.peek().deliverAt() - now), TimeUnit.NANOSECONDS);
        }

        private void drain() {
            drainScheduled = false;
            if (removed) {
                return;
            }
            long now = System.nanoTime();
            boolean delivered = false;
            while (!held.isEmpty() && held.peek().deliverAt() - now <= 0) {
                Held h = held.poll();
                heldBytes -= h.bytes();
                bytesDown.add(h.bytes());
                delivered = true;
                ctx.fireChannelRead(h.message());
            }
            if (delivered) {
                ctx.fireChannelReadComplete();
            }
            if (holdPause && heldBytes <= maxHeldBytes / 2) {
                holdPause = false;
                updateAutoRead();
            }
            scheduleDrain(now);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (up == null && delayNanos == 0) {
                ctx.write(msg, promise);
                return;
            }
            int bytes = msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
            long now = System.nanoTime();
            long departs = up == null ? now : up.depart(now, bytes);
            long due = departs + delayNanos - now;
            if (due <= 0 && scheduledWrites == 0) {
                bytesUp.add(bytes);
                ctx.write(msg, promise);
            } else {
                // the pacer's times only grow, so scheduled writes keep their order
                scheduledWrites++;
                ctx.executor().schedule(() -> {
                    scheduledWrites--;
                    bytesUp.add(bytes);
                    ctx.writeAndFlush(msg, promise);
                }, Math.max(0, due), TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            // the pipeline is torn down right after this event, so what the link still carries arrives now
            boolean delivered = !held.isEmpty();
            while (!held.isEmpty()) {
                Held h = held.poll();
                bytesDown.add(h.bytes());
                ctx.fireChannelRead(h.message());
            }
            heldBytes = 0;
            if (delivered) {
                ctx.fireChannelReadComplete();
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            removed = true;
            while (!held.isEmpty()) {
                ReferenceCountUtil.release(held.poll().message());
            }
        }
    }
}
