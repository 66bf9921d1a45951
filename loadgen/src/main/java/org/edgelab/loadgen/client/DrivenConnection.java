package org.edgelab.loadgen.client;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.LoopMetrics;
import org.edgelab.loadgen.workload.RequestSlot;
import org.edgelab.transport.Transport;

/**
 * A keep-alive HTTP/1.1 connection whose requests a {@link FetchDriver} chooses, one at a time; it
 * verifies and counts responses like {@link HttpConnection} (into the loop's {@link LoopMetrics}) and
 * reconnects after a close until stopped.
 *
 * <p>Thread-safety: confined to its event loop; {@link #start()} and {@link #wake()} must be called on it.
 */
public final class DrivenConnection extends ChannelInboundHandlerAdapter {
    private static final long RECONNECT_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final FetchDriver driver;
    private final LoopMetrics metrics;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final byte[] host;
    private final long timeoutNanos;
    private final boolean verify;
    private final RequestSlot slot = new RequestSlot();
    private final ResponseCheck check = new ResponseCheck();
    private final ResponseParser parser = new ResponseParser(new Events());

    private Channel channel;
    private boolean stopped;
    private boolean inFlight;
    private boolean headersSeen;
    private long token;
    private long sentNanos;

    /** A connection to {@code address} on {@code loop}. */
    public DrivenConnection(FetchDriver driver, LoopMetrics metrics, EventLoop loop, java.net.InetSocketAddress address,
                            String hostHeader, LinkEmulation link, long timeoutNanos, boolean verify) {
        this.driver = driver;
        this.metrics = metrics;
        this.loop = loop;
        this.host = hostHeader.getBytes(StandardCharsets.US_ASCII);
        this.timeoutNanos = timeoutNanos;
        this.verify = verify;
        DrivenConnection self = this;
        this.bootstrap = new Bootstrap().group(loop).channel(Transport.preferred().socketChannelClass()).remoteAddress(address)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ChannelPipeline p = ch.pipeline();
                        if (!link.isNone()) {
                            p.addLast("link", new LinkEmulator(link));
                        }
                        p.addLast("connection", self);
                    }
                });
    }

    @Override
    public boolean isSharable() {
        return true;
    }

    /** Connects and starts pulling requests from the driver. */
    public void start() {
        connect();
    }

    private void connect() {
        if (stopped) {
            return;
        }
        bootstrap.connect().addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                metrics.error(ErrorClass.CONNECT);
                if (!stopped) {
                    loop.schedule(this::connect, RECONNECT_DELAY_NANOS, TimeUnit.NANOSECONDS);
                }
            }
        });
    }

    /** Asks the driver for a request if this connection is idle. */
    public void wake() {
        if (!stopped && !inFlight && channel != null && channel.isActive()) {
            long next = driver.nextFetch(slot);
            if (next >= 0) {
                send(next);
            }
        }
    }

    private void send(long next) {
        token = next;
        inFlight = true;
        headersSeen = false;
        sentNanos = System.nanoTime();
        metrics.sent++;
        parser.expectResponse();
        channel.writeAndFlush(RequestEncoder.encode(channel.alloc(), slot, host), channel.voidPromise());
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        parser.reset();
        metrics.connects++;
        if (stopped) {
            ctx.close();
        } else {
            wake();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf buf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            metrics.bytesRead += buf.readableBytes();
            parser.feed(buf);
        } finally {
            buf.release();
        }
    }

    /** What the parser finds in this connection's response, on its event loop. */
    private final class Events implements ResponseParser.Listener {
        @Override
        public void onHead(int status, boolean keepAlive, long contentLength, String xCache, String contentRange) {
            if (inFlight) {
                headersSeen = true;
                check.onHead(status, keepAlive, contentLength, xCache, contentRange, slot, verify);
                if (check.hasXCache()) {
                    metrics.cacheHead(check.hit(), slot.firstTime, System.nanoTime() - sentNanos);
                }
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
            if (!inFlight) {
                return;
            }
            metrics.completed++;
            int c = check.status() / 100;
            metrics.statusClasses[c >= 1 && c <= 5 ? c : 0]++;
            ErrorClass error = check.verdict();
            if (error == null && c == 2) {
                metrics.goodResponses++;
                metrics.goodBytes += check.bodyReceived();
            }
            end(error, !check.keepAlive());
        }

        @Override
        public void onMalformed(String reason) {
            if (inFlight) {
                end(ErrorClass.INTEGRITY, true);
            }
        }
    }

    private void end(ErrorClass error, boolean close) {
        inFlight = false;
        if (close) {
            parser.abandon();
        }
        if (error != null) {
            metrics.error(error);
        }
        driver.fetched(token, error, sentNanos, System.nanoTime(), check.bodyReceived());
        if (close) {
            channel.close();
        } else {
            wake();
        }
    }

    /** Ends an overdue fetch as a timeout; called by the loop's sweeper. */
    public void checkTimeout(long now) {
        if (inFlight && now - sentNanos > timeoutNanos) {
            end(ErrorClass.TIMEOUT, true);
        }
    }

    /** Closes the connection and sends nothing more. */
    public void stop() {
        stopped = true;
        inFlight = false;
        if (channel != null) {
            channel.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (inFlight && parser.endsAtClose()) {
            parser.onClose(); // a body delimited by the close ended normally
        }
        channel = null;
        if (inFlight && !stopped) {
            inFlight = false;
            ErrorClass error = headersSeen ? ErrorClass.TRUNCATED : ErrorClass.CLOSED;
            metrics.error(error);
            driver.fetched(token, error, sentNanos, System.nanoTime(), check.bodyReceived());
        }
        inFlight = false;
        if (!stopped) {
            connect();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
