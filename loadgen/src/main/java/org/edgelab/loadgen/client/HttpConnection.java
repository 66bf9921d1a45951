package org.edgelab.loadgen.client;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import org.edgelab.loadgen.link.Link;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.LoopMetrics;
import org.edgelab.loadgen.workload.RequestSlot;
import org.edgelab.transport.Transport;

/**
 * One keep-alive HTTP/1.1 client connection, the only one loadgen has: asks its {@link FetchDriver} for
 * the next request, sends it (at once, or at its due time in an open loop), streams the response through
 * byte counting and verification without keeping the body, records TTFB/TTLB from the due time into its
 * loop's {@link LoopMetrics}, classifies errors, tells the driver how the request ended, and reconnects
 * after a close until the driver is done or stopping.
 *
 * <p>Thread-safety: confined to its event loop; {@link #start()} may be called from any thread (it hops
 * onto the loop), {@link #wake()}, {@link #checkTimeout} and {@link #stop()} only on the loop.
 */
public final class HttpConnection extends ChannelInboundHandlerAdapter implements Runnable {
    private static final long RECONNECT_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /**
     * What every connection of one load shares.
     *
     * @param hostHeader   the Host header's value
     * @param headers      further request headers, "Name: value" each
     * @param timeoutNanos a response not complete this long after its send is a timeout
     * @param lateNanos    a request sent later than this after its due time is a late start
     * @param verify       verify synthetic bodies byte by byte
     * @param link         the link every connection of the load crosses
     */
    public record Settings(String hostHeader, List<String> headers, long timeoutNanos, long lateNanos, boolean verify,
                           Link link) {
        /** Copies the header list. */
        public Settings {
            headers = List.copyOf(headers);
        }
    }

    private final FetchDriver driver;
    private final LoopMetrics metrics;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final byte[] hostHeader;
    private final byte[] headerLines;
    private final ChannelFutureListener writeDone = this::written;
    private final long timeoutNanos;
    private final long lateNanos;
    private final boolean verify;
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
    private boolean writeFailed;
    private long token;
    private long dueNanos;
    private long sentNanos;
    private long firstByteNanos;

    /** A connection on {@code loop} made from {@code template} (see {@link #bootstrap}) that {@code driver} leads. */
    public HttpConnection(FetchDriver driver, LoopMetrics metrics, EventLoop loop, Bootstrap template, Settings settings) {
        this.driver = driver;
        this.metrics = metrics;
        this.loop = loop;
        this.hostHeader = settings.hostHeader().getBytes(StandardCharsets.US_ASCII);
        this.headerLines = RequestEncoder.headerLines(settings.headers());
        this.timeoutNanos = settings.timeoutNanos();
        this.lateNanos = settings.lateNanos();
        this.verify = settings.verify();
        Link link = settings.link();
        this.bootstrap = template.clone(loop).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                link.attach(ch);
                ch.pipeline().addLast("connection", HttpConnection.this);
            }
        });
    }

    /**
     * The bootstrap every load connection is cloned from: {@code address} on {@code group}, no Nagle, keep-alive,
     * pooled buffers and reads sized for bulk bodies ({@link ReceiveBuffers}); a connect not done within
     * {@code connectTimeout} fails.
     */
    public static Bootstrap bootstrap(EventLoopGroup group, InetSocketAddress address, Duration connectTimeout) {
        return new Bootstrap()
                .group(group)
                .channel(Transport.preferred().socketChannelClass())
                .remoteAddress(address)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.RCVBUF_ALLOCATOR, ReceiveBuffers.forBulkBodies());
    }

    /** Opens the connection; requests follow as the driver gives them. Safe from any thread. */
    public void start() {
        loop.execute(this::connect);
    }

    private void connect() {
        if (finished) {
            return;
        }
        if (driver.stopping()) {
            finish();
            return;
        }
        bootstrap.connect().addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                metrics.error(ErrorClass.CONNECT);
                if (driver.stopping()) {
                    finish();
                } else if (!finished) {
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
        if (ctx.channel().localAddress() != null && ctx.channel().localAddress().equals(ctx.channel().remoteAddress())) {
            // A TCP connection to itself: nothing listened on the port (a server restarting) and the kernel picked it
            // as the source port too (both in the ephemeral range), so the request would come back as its response.
            // A failed connect, retried like one (Go's dialer does the same).
            metrics.error(ErrorClass.CONNECT);
            ctx.channel().close();
            if (!finished && !driver.stopping()) {
                loop.schedule(this::connect, RECONNECT_DELAY_NANOS, TimeUnit.NANOSECONDS);
            }
            return;
        }
        channel = ctx.channel();
        parser.reset();
        metrics.connects++;
        if (finished || driver.stopping()) {
            finish();
        } else if (held) {
            held = false;
            send();
        } else {
            issueNext();
        }
        ctx.fireChannelActive();
    }

    /** Asks the driver for a request if this connection is idle (nothing in flight, due or held). Call on the loop. */
    public void wake() {
        if (channel != null && channel.isActive()) {
            issueNext();
        }
    }

    private void issueNext() {
        if (finished || inFlight || scheduled || held) {
            return;
        }
        if (driver.stopping()) {
            finish();
            return;
        }
        long next = driver.nextFetch(slot);
        if (next == FetchDriver.WAIT) {
            return;
        }
        if (next < 0) {
            finish();
            return;
        }
        token = next;
        dueNanos = driver.dueNanos();
        long delay = dueNanos == 0 ? 0 : dueNanos - System.nanoTime();
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
        if (driver.stopping()) {
            finish();
            return;
        }
        send();
    }

    private void send() {
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            held = true; // sent as soon as the reconnect completes; latency still counts from the due time
            return;
        }
        long now = System.nanoTime();
        if (dueNanos == 0) {
            dueNanos = now;
        } else {
            long lag = now - dueNanos;
            if (lag > lateNanos) {
                metrics.lateStarts++;
            }
            if (lag > metrics.maxStartDelayNanos) {
                metrics.maxStartDelayNanos = lag;
            }
        }
        sentNanos = now;
        if (metrics.firstSendNanos == 0) {
            metrics.firstSendNanos = now;
        }
        inFlight = true;
        awaitingFirstByte = true;
        headersSeen = false;
        writeFailed = false;
        metrics.sent++;
        driver.sending(token);
        parser.expectResponse();
        ch.writeAndFlush(RequestEncoder.encode(ch.alloc(), slot, hostHeader, headerLines)).addListener(writeDone);
    }

    private void written(ChannelFuture f) {
        if (!f.isSuccess() && f.channel() == channel) {
            writeFailed = true; // the transport closes the channel; channelInactive counts the request
            f.channel().close();
        }
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
        metrics.ttfb.recordValue(Math.max(0, firstByteNanos - dueNanos));
        metrics.ttlb.recordValue(Math.max(0, now - dueNanos));
        metrics.serviceTime.recordValue(Math.max(0, now - sentNanos));
        if (check.hasXCache()) {
            metrics.cacheEnd(check.hit(), now - dueNanos);
        }
        ErrorClass error = check.verdict();
        long body = check.bodyReceived();
        if (error != null) {
            metrics.error(error);
        } else if (statusClass == 2) {
            metrics.goodResponses++;
            metrics.goodBytes += body;
        }
        boolean keepAlive = check.keepAlive();
        if (!keepAlive) {
            channel.close(); // first, so a driver that wakes this connection now waits for the reconnect
        }
        driver.fetched(token, error, sentNanos, now, body);
        if (keepAlive) {
            issueNext();
        }
    }

    private void failRequest(ErrorClass type) {
        parser.abandon();
        inFlight = false;
        metrics.error(type);
        channel.close(); // channelInactive reconnects
        driver.fetched(token, type, sentNanos, System.nanoTime(), check.bodyReceived());
    }

    /** Counts a timeout and closes the connection if the response is overdue; called by the loop's sweeper. */
    public void checkTimeout(long now) {
        if (inFlight && now - sentNanos > timeoutNanos) {
            failRequest(ErrorClass.TIMEOUT);
        }
    }

    /** Ends this connection: a request in flight counts as unfinished and nothing more is sent. Call on the loop. */
    public void stop() {
        if (inFlight) {
            inFlight = false;
            metrics.unfinished++;
        }
        finish();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel() != channel) {
            ctx.fireChannelInactive(); // a connection to itself, closed and retried in channelActive
            return;
        }
        if (inFlight && parser.endsAtClose()) {
            parser.onClose(); // a body delimited by the close ended normally
        }
        if (inFlight) {
            inFlight = false;
            if (driver.stopping()) {
                metrics.unfinished++;
            } else {
                ErrorClass error = headersSeen ? ErrorClass.TRUNCATED : writeFailed ? ErrorClass.WRITE : ErrorClass.CLOSED;
                metrics.error(error);
                driver.fetched(token, error, sentNanos, System.nanoTime(), check.bodyReceived());
            }
        }
        channel = null;
        if (!finished) {
            if (driver.stopping()) {
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
        driver.connectionFinished();
    }

    /** What the parser finds in this connection's response, on its event loop. */
    private final class Events implements ResponseParser.Listener {
        @Override
        public void onHead(int status, boolean keepAlive, long contentLength, String xCache, String contentRange) {
            if (!inFlight) {
                return;
            }
            headersSeen = true;
            check.onHead(status, keepAlive, contentLength, xCache, contentRange, slot, verify);
            if (check.hasXCache()) {
                metrics.cacheHead(check.hit(), slot.firstTime, firstByteNanos - dueNanos);
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
