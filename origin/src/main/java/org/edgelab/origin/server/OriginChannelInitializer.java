package org.edgelab.origin.server;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import java.nio.file.Path;
import org.edgelab.origin.OriginConfig;

/** Builds each connection's pipeline: HTTP/1.1 codec, then an {@link OriginHandler}. Thread-safe (shared by all connections). */
public final class OriginChannelInitializer extends ChannelInitializer<SocketChannel> {

    /** Longest request line accepted; longer ones get 414. */
    public static final int MAX_INITIAL_LINE_LENGTH = 8192;
    /** Largest header block accepted; larger ones get 431. */
    public static final int MAX_HEADER_SIZE = 16384;

    private final OriginConfig config;
    private final FilesRoot filesRoot;
    private final OriginCounters counters;

    /** An initializer serving what {@code config} says and counting into {@code counters}. */
    public OriginChannelInitializer(OriginConfig config, OriginCounters counters) {
        this.config = config;
        Path root = config.filesRoot();
        this.filesRoot = root == null ? null : new FilesRoot(root);
        this.counters = counters;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        pipeline.addLast("http", new HttpServerCodec(MAX_INITIAL_LINE_LENGTH, MAX_HEADER_SIZE, 64 * 1024));
        pipeline.addLast("origin", new OriginHandler(config, filesRoot, counters));
    }
}
