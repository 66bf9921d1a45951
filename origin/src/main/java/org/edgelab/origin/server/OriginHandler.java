package org.edgelab.origin.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.edgelab.http.ByteRanges;
import org.edgelab.http.ByteRanges.ByteRange;
import org.edgelab.http.Conditionals;
import org.edgelab.http.Conditionals.Validators;
import org.edgelab.http.HttpDates;
import org.edgelab.http.MultipartByteranges;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.origin.content.SyntheticPaths.SyntheticObject;
import org.edgelab.origin.fault.FaultPlan;
import org.edgelab.origin.server.ResponseWriter.Delivery;
import org.edgelab.origin.server.ResponseWriter.Segment;

/**
 * Answers the requests of one connection in order: {@code GET /_stats}, synthetic objects (or files
 * in files mode) with validators, conditional requests and ranges (RFC 9110, through
 * {@link org.edgelab.http}) and faults; 400 for malformed
 * requests, 404 for unknown paths, 405 for methods other than GET and HEAD. Pipelined requests wait
 * for the response in progress. Not sharable and not thread-safe: one instance per channel, used on
 * its event loop.
 */
public final class OriginHandler extends ChannelInboundHandlerAdapter {

    /** The path of the stats endpoint. */
    public static final String STATS_PATH = "/_stats";
    /** Beyond this many ranges in one Range header the header is ignored and the whole object served. */
    static final int MAX_RANGES = 64;
    private static final int MAX_PIPELINED = 16;

    private final OriginConfig config;
    private final FilesRoot filesRoot;
    private final OriginCounters counters;
    private final ArrayDeque<HttpRequest> pending = new ArrayDeque<>();
    private ResponseWriter current;

    OriginHandler(OriginConfig config, FilesRoot filesRoot, OriginCounters counters) {
        this.config = config;
        this.filesRoot = filesRoot;
        this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpRequest request) {
                if (current != null || !pending.isEmpty()) {
                    pending.add(request);
                    if (pending.size() >= MAX_PIPELINED) {
                        ctx.channel().config().setAutoRead(false);
                    }
                } else {
                    handle(ctx, request);
                }
            } else if (msg instanceof HttpContent content && !content.decoderResult().isSuccess()) {
                ctx.close(); // a malformed request body: the connection's framing is lost
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (current != null && ctx.channel().isWritable()) {
            current.resume();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (current != null) {
            current.abort();
            current = null;
        }
        pending.clear();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private void next(ChannelHandlerContext ctx) {
        current = null;
        HttpRequest request = pending.poll();
        if (!ctx.channel().config().isAutoRead() && pending.size() < MAX_PIPELINED / 2) {
            ctx.channel().config().setAutoRead(true);
        }
        if (request != null && ctx.channel().isActive()) {
            handle(ctx, request);
        }
    }

    private void handle(ChannelHandlerContext ctx, HttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            counters.recordRequest();
            Throwable cause = request.decoderResult().cause();
            HttpResponseStatus status = cause instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                    : cause instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                    : HttpResponseStatus.BAD_REQUEST;
            sendText(ctx, request, status, "malformed request: " + cause.getMessage(), false, Delivery.PLAIN);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        String uri = originForm(request.uri());
        QueryStringDecoder query;
        try {
            query = new QueryStringDecoder(uri);
            query.path(); // decoding is lazy: force it here so bad percent-encoding is a 400, not a surprise later
            query.parameters();
        } catch (IllegalArgumentException e) {
            counters.recordRequest();
            sendText(ctx, request, HttpResponseStatus.BAD_REQUEST, "bad request target: " + e.getMessage(), keepAlive, Delivery.PLAIN);
            return;
        }
        HttpMethod method = request.method();
        boolean getOrHead = HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
        if (STATS_PATH.equals(query.path()) && getOrHead) {
            sendStats(ctx, request, keepAlive);
            return;
        }
        long requestNumber = counters.recordRequest();
        if (!getOrHead) {
            HttpResponse response = newResponse(request, HttpResponseStatus.METHOD_NOT_ALLOWED);
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            send(ctx, request, response, null, text("method " + method + " is not allowed; use GET or HEAD"), keepAlive, Delivery.PLAIN);
            return;
        }
        FaultPlan plan;
        try {
            plan = config.faults().planFor(requestNumber).overriddenBy(FaultPlan.fromParameters(query.parameters()));
        } catch (IllegalArgumentException e) {
            sendText(ctx, request, HttpResponseStatus.BAD_REQUEST, "bad fault parameter: " + e.getMessage(), keepAlive, Delivery.PLAIN);
            return;
        }
        Delivery delivery = new Delivery(
                (plan.firstByteDelay() != null ? plan.firstByteDelay() : config.firstByteLatency()).toNanos(),
                plan.rateBytesPerSecond() > 0 ? plan.rateBytesPerSecond() : config.bandwidthBytesPerSecond(),
                plan.resetAfter(), plan.corruptAt());
        if (plan.status() != 0) {
            HttpResponse response = newResponse(request, HttpResponseStatus.valueOf(plan.status()));
            if (plan.cacheControl() != null) {
                response.headers().set(HttpHeaderNames.CACHE_CONTROL, plan.cacheControl());
            }
            send(ctx, request, response, null, text("injected status " + plan.status()), keepAlive, delivery);
            return;
        }
        Representation representation;
        if (filesRoot != null) {
            FilesRoot.Resolution resolution = filesRoot.resolve(uri);
            if (resolution.file() == null) {
                sendText(ctx, request, resolution.error(), resolution.message() + ": " + query.path(), keepAlive, delivery);
                return;
            }
            representation = resolution.file();
        } else {
            Optional<SyntheticObject> object = SyntheticPaths.parse(uri);
            if (object.isEmpty()) {
                sendText(ctx, request, HttpResponseStatus.NOT_FOUND,
                        "no such object: " + query.path() + " (synthetic objects are at /objects/{size}/{id})", keepAlive, delivery);
                return;
            }
            representation = new SyntheticRepresentation(object.get());
        }
        serve(ctx, request, representation, plan, delivery, keepAlive);
    }

    private void serve(ChannelHandlerContext ctx, HttpRequest request, Representation representation, FaultPlan plan,
                       Delivery delivery, boolean keepAlive) {
        HttpHeaders requestHeaders = request.headers();
        long size = representation.length();
        String etag = representation.etag();
        long lastModified = representation.lastModifiedMillis();

        HttpResponse response = newResponse(request, HttpResponseStatus.OK);
        HttpHeaders headers = response.headers();
        headers.set(HttpHeaderNames.ETAG, etag);
        headers.set(HttpHeaderNames.LAST_MODIFIED, HttpDates.format(lastModified));
        headers.set(HttpHeaderNames.CACHE_CONTROL, plan.cacheControl() != null ? plan.cacheControl() : config.cacheControl());
        headers.set(HttpHeaderNames.ACCEPT_RANGES, HttpHeaderValues.BYTES);

        Validators validators = Validators.of(etag, lastModified,
                HttpDates.parseMillis(headers.get(HttpHeaderNames.DATE)).orElse(config.clock().millis()));
        switch (Conditionals.evaluate(request.method(), requestHeaders, validators)) {
            case NOT_MODIFIED -> {
                response.setStatus(HttpResponseStatus.NOT_MODIFIED);
                representation.close();
                send(ctx, request, response, null, List.of(), keepAlive, delivery);
                return;
            }
            case PRECONDITION_FAILED -> {
                representation.close();
                HttpResponse failed = newResponse(request, HttpResponseStatus.PRECONDITION_FAILED);
                failed.headers().set(HttpHeaderNames.ETAG, etag);
                send(ctx, request, failed, null, text("precondition failed for " + etag), keepAlive, delivery);
                return;
            }
            default -> {
                // SERVE
            }
        }
        headers.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
        List<Segment> body = size == 0 ? List.of() : List.of(Segment.range(0, size));
        String range = requestHeaders.get(HttpHeaderNames.RANGE);
        if (range != null && HttpMethod.GET.equals(request.method())
                && Conditionals.ifRangeMatches(requestHeaders.get(HttpHeaderNames.IF_RANGE), validators)) {
            ByteRanges.RangeRequest ranges = ByteRanges.parse(range, size, MAX_RANGES);
            if (ranges instanceof ByteRanges.Unsatisfiable unsatisfiable) {
                representation.close();
                HttpResponse answer = newResponse(request, HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
                answer.headers().set(HttpHeaderNames.CONTENT_RANGE, unsatisfiable.contentRange());
                answer.headers().set(HttpHeaderNames.ETAG, etag);
                send(ctx, request, answer, null, text("range not satisfiable: " + range + " of " + size + " bytes"),
                        keepAlive, delivery);
                return;
            }
            if (ranges instanceof ByteRanges.Satisfiable satisfiable) {
                response.setStatus(HttpResponseStatus.PARTIAL_CONTENT);
                if (!satisfiable.multipart()) {
                    ByteRange only = satisfiable.ranges().get(0);
                    headers.set(HttpHeaderNames.CONTENT_RANGE, only.contentRange(size));
                    body = List.of(Segment.range(only.first(), only.length()));
                } else {
                    MultipartByteranges parts = MultipartByteranges.of(satisfiable.ranges(), size,
                            HttpHeaderValues.APPLICATION_OCTET_STREAM.toString());
                    headers.set(HttpHeaderNames.CONTENT_TYPE, parts.contentType());
                    body = multipart(parts);
                }
            }
            // None: serve the whole representation
        }
        send(ctx, request, response, representation, body, keepAlive, delivery, plan.chunked(), counters);
    }

    /** The origin-form ({@code /path?query}) of a request target, which may be in absolute-form ({@code http://host/path}). */
    static String originForm(String target) {
        int schemeEnd = target.indexOf("://");
        if (schemeEnd > 0 && !target.startsWith("/")) {
            int pathStart = target.indexOf('/', schemeEnd + 3);
            if (pathStart < 0) {
                int queryStart = target.indexOf('?', schemeEnd + 3);
                return queryStart < 0 ? "/" : "/" + target.substring(queryStart);
            }
            return target.substring(pathStart);
        }
        return target;
    }

    /** The body of a multipart/byteranges response: each part's header, then its range of the representation; then the trailer. */
    private static List<Segment> multipart(MultipartByteranges parts) {
        List<Segment> body = new ArrayList<>(2 * parts.partCount() + 1);
        for (int i = 0; i < parts.partCount(); i++) {
            ByteRange range = parts.ranges().get(i);
            body.add(Segment.literal(parts.partHeader(i)));
            body.add(Segment.range(range.first(), range.length()));
        }
        body.add(Segment.literal(parts.trailer()));
        return body;
    }

    private void sendStats(ChannelHandlerContext ctx, HttpRequest request, boolean keepAlive) {
        HttpResponse response = newResponse(request, HttpResponseStatus.OK);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        byte[] json = (counters.snapshot().toJson() + "\n").getBytes(StandardCharsets.UTF_8);
        // Stats responses are not counted, so reading the stats does not change them.
        send(ctx, request, response, null, List.of(Segment.literal(json)), keepAlive, Delivery.PLAIN, false, null);
    }

    private void sendText(ChannelHandlerContext ctx, HttpRequest request, HttpResponseStatus status, String message,
                          boolean keepAlive, Delivery delivery) {
        send(ctx, request, newResponse(request, status), null, text(message), keepAlive, delivery);
    }

    private static List<Segment> text(String message) {
        return List.of(Segment.literal((message + "\n").getBytes(StandardCharsets.UTF_8)));
    }

    private void send(ChannelHandlerContext ctx, HttpRequest request, HttpResponse response, Representation representation,
                      List<Segment> body, boolean keepAlive, Delivery delivery) {
        if (!body.isEmpty() && body.get(0).literal() != null && representation == null
                && !response.headers().contains(HttpHeaderNames.CONTENT_TYPE)) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        }
        send(ctx, request, response, representation, body, keepAlive, delivery, false, counters);
    }

    /** Starts writing {@code response}; {@code countInto} null means the response is not counted. */
    private void send(ChannelHandlerContext ctx, HttpRequest request, HttpResponse response, Representation representation,
                      List<Segment> body, boolean keepAlive, Delivery delivery, boolean chunked, OriginCounters countInto) {
        long length = 0;
        for (Segment segment : body) {
            length += segment.length();
        }
        int status = response.status().code();
        boolean bodyless = status == 304 || status == 204 || (status >= 100 && status < 200);
        if (!bodyless) {
            if (chunked) {
                HttpUtil.setTransferEncodingChunked(response, true);
            } else {
                HttpUtil.setContentLength(response, length);
            }
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        boolean isHead = HttpMethod.HEAD.equals(request.method());
        List<Segment> toSend = isHead || bodyless ? List.of() : body;
        if (toSend.isEmpty() && representation != null) {
            representation.close();
        }
        current = new ResponseWriter(ctx, response, toSend.isEmpty() ? null : representation, toSend, delivery, keepAlive,
                countInto, () -> next(ctx));
        current.start();
    }

    private HttpResponse newResponse(HttpRequest request, HttpResponseStatus status) {
        HttpVersion version = request.protocolVersion() == null ? HttpVersion.HTTP_1_1 : request.protocolVersion();
        HttpResponse response = new DefaultHttpResponse(
                version.equals(HttpVersion.HTTP_1_0) ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1, status);
        response.headers().set(HttpHeaderNames.DATE, HttpDates.format(config.clock().millis()));
        return response;
    }
}
