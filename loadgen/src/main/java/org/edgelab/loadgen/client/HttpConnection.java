package org.edgelab.loadgen.client;

import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.LoopMetrics;
import org.edgelab.loadgen.workload.RequestGenerator;
import org.edgelab.loadgen.workload.RequestSlot;

/**
 * One keep-alive HTTP/1.1 client connection of a load run: claims a request number, sends it (at once in
 * a closed loop, at its intended start in an open loop), streams the response through byte counting and
 * verification without keeping the body, records TTFB/TTLB from the intended start, classifies errors,
 * and reconnects after a close until the run ends.
 *
 * <p>Thread-safety: confined to its event loop; only {@link #start()} may be called from elsewhere
 * (it hops onto the loop).
 */
public final class HttpConnection extends ChannelInboundHandlerAdapter implements Runnable {
    private static final long RECONNECT_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final RunControl run;
    private final LoopMetrics metrics;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final RequestGenerator generator;
    private final byte[] hostHeader;
    private final LinkEmulation link;
    private final RequestSlot slot = new RequestSlot();
    private final ResponseCheck check = new ResponseCheck();
    private final ResponseParser parser = new ResponseParser(new Events());

    private Channel channel;
    private boolean finished;
    private boolean inFlight;
    private boolean scheduled;
    private boolean held;
    private boolean awaitingFirstByte;
    private boolean headersSeen;
    private long intendedNanos;
    private long sentNanos;
    private long firstByteNanos;

    HttpConnection(RunControl run, LoopMetrics metrics, EventLoop loop, Bootstrap template, RequestGenerator generator,
                   byte[] hostHeader, LinkEmulation link) {
        this.run = run;
        this.metrics = metrics;
        this.loop = loop;
        this.generator = generator;
        this.hostHeader = hostHeader;
        this.link = link;
        this.bootstrap = template.clone(loop).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ChannelPipeline p = ch.pipeline();
                if (!HttpConnection.this.link.isNone()) {
                    p.addLast("link", new LinkEmulator(HttpConnection.this.link));
                }
                p.addLast("connection", HttpConnection.this);
            }
        });
    }

    /** Opens the connection and starts sending; safe from any thread. */
    public void start() {
        loop.execute(this::connect);
    }

    private void connect() {
        if (finished) {
            return;
        }
        if (run.stopping()) {
            finish();
            return;
        }
        bootstrap.connect().addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                metrics.error(ErrorClass.CONNECT);
                if (run.stopping() || System.nanoTime() >= run.deadlineNanos()) {
                    finish();
                } else {
                    loop.schedule(this::connect, RECONNECT_DELAY_NANOS, TimeUnit.NANOSECONDS);
                }
            }
        });
    }

    @Override
    public boolean isSharable() {
        return true; // one instance per connection, re-added on every reconnect
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        parser.reset();
        metrics.connects++;
        if (finished || run.stopping()) {
            finish();
        } else if (held) {
            held = false;
            send();
        } else if (!scheduled) {
            issueNext();
        }
        ctx.fireChannelActive();
    }

    private void issueNext() {
        if (finished) {
            return;
        }
        if (run.stopping()) {
            finish();
            return;
        }
        long ticket = run.claim();
        if (ticket < 0) {
            finish();
            return;
        }
        generator.next(ticket, slot);
        if (run.schedule() == null) {
            intendedNanos = 0;
            send();
            return;
        }
        long offset = run.schedule().offsetNanos(ticket);
        if (offset < 0) {
            finish();
            return;
        }
        intendedNanos = run.startNanos() + offset;
        if (intendedNanos >= run.deadlineNanos()) {
            finish();
            return;
        }
        long delay = intendedNanos - System.nanoTime();
        if (delay > 0) {
            scheduled = true;
            loop.schedule(this, delay, TimeUnit.NANOSECONDS);
        } else {
            send();
        }
    }

    /** The open-loop timer: the scheduled request is due. */
    @Override
    public void run() {
        scheduled = false;
        if (finished) {
            return;
        }
        if (run.stopping()) {
            finish();
            return;
        }
        send();
    }

    private void send() {
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            held = true; // sent as soon as the reconnect completes; latency still counts from the intended start
            return;
        }
        long now = System.nanoTime();
        if (intendedNanos == 0) {
            intendedNanos = now;
        } else {
            long lag = now - intendedNanos;
            if (lag > run.lateNanos()) {
                metrics.lateStarts++;
            }
            if (lag > metrics.maxStartDelayNanos) {
                metrics.maxStartDelayNanos = lag;
            }
        }
        sentNanos = now;
        inFlight = true;
        awaitingFirstByte = true;
        headersSeen = false;
        metrics.sent++;
        parser.expectResponse();
        ch.writeAndFlush(RequestEncoder.encode(ch.alloc(), slot, hostHeader), ch.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf buf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            metrics.bytesRead += buf.readableBytes();
            if (awaitingFirstByte) {
                awaitingFirstByte = false;
                firstByteNanos = System.nanoTime();
            }
            parser.feed(buf); // ignores bytes when no response is expected (after a timeout, say)
        } finally {
            buf.release();
        }
    }

    private void onEnd() {
        long now = System.nanoTime();
        inFlight = false;
        metrics.completed++;
        int statusClass = check.status() / 100;
        metrics.statusClasses[statusClass >= 1 && statusClass <= 5 ? statusClass : 0]++;
        metrics.ttfb.recordValue(Math.max(0, firstByteNanos - intendedNanos));
        metrics.ttlb.recordValue(Math.max(0, now - intendedNanos));
        metrics.serviceTime.recordValue(Math.max(0, now - sentNanos));
        ErrorClass error = check.verdict();
        long body = check.bodyReceived();
        if (error != null) {
            metrics.error(error);
        } else if (statusClass == 2) {
            metrics.goodResponses++;
            metrics.goodBytes += body;
        }
        if (!check.keepAlive()) {
            channel.close(); // channelInactive reconnects
        } else {
            issueNext();
        }
    }

    private void failRequest(ErrorClass type) {
        parser.abandon();
        inFlight = false;
        metrics.error(type);
        channel.close();
    }

    /** Counts a timeout and closes the connection if the response is overdue; called by the loop's sweeper. */
    void checkTimeout(long now) {
        if (inFlight && now - sentNanos > run.timeoutNanos()) {
            failRequest(ErrorClass.TIMEOUT);
        }
    }

    /** Ends this connection at the run's deadline; an unanswered request counts as unfinished. */
    void stop() {
        if (inFlight) {
            inFlight = false;
            metrics.unfinished++;
        }
        finish();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (inFlight && parser.endsAtClose()) {
            parser.onClose(); // a body delimited by the close ended normally
        }
        if (inFlight) {
            inFlight = false;
            if (run.stopping()) {
                metrics.unfinished++;
            } else {
                metrics.error(headersSeen ? ErrorClass.TRUNCATED : ErrorClass.CLOSED);
            }
        }
        channel = null;
        if (!finished) {
            if (run.stopping()) {
                finish();
            } else {
                connect();
            }
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // resets and I/O errors: channelInactive classifies the request
    }

    private void finish() {
        if (finished) {
            return;
        }
        finished = true;
        if (channel != null) {
            channel.close();
        }
        run.connectionFinished();
    }

    /** What the parser finds in this connection's response, on its event loop. */
    private final class Events implements ResponseParser.Listener {
        @Override
        public void onHead(int status, boolean keepAlive, long contentLength, String xCache, String contentRange) {
            if (!inFlight) {
                return;
            }
            headersSeen = true;
            check.onHead(status, keepAlive, contentLength, xCache, contentRange, slot, run.verify());
            if (check.hasXCache()) {
                metrics.cacheHead(check.hit(), slot.firstTime, firstByteNanos - intendedNanos);
            }
        }

        @Override
        public void onBody(ByteBuf buf) {
            if (inFlight) {
                int n = check.onBody(buf);
                metrics.bodyBytes += n;
                if (check.hasXCache()) {
                    metrics.cacheBody(n, check.hit());
                }
            }
        }

        @Override
        public void onEnd() {
            if (inFlight) {
                HttpConnection.this.onEnd();
            }
        }

        @Override
        public void onMalformed(String reason) {
            if (inFlight) {
                failRequest(ErrorClass.INTEGRITY);
            }
        }
    }
}
