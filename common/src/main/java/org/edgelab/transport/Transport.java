package org.edgelab.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.function.Supplier;

/**
 * The Netty transport EdgeLab's servers and clients run on, chosen in this one place: native epoll
 * where Linux offers it ({@link #preferred()}), NIO otherwise. Each constant gives the event-loop
 * groups and channel classes that belong together. Immutable and thread-safe; no method blocks.
 */
public enum Transport {

    /** Linux's epoll through Netty's native transport (needs {@code netty-transport-native-epoll} on the class path). */
    EPOLL("epoll", EpollIoHandler::newFactory, EpollServerSocketChannel.class, EpollSocketChannel.class),
    /** Java NIO selectors: everywhere. */
    NIO("nio", NioIoHandler::newFactory, NioServerSocketChannel.class, NioSocketChannel.class);

    private final String label;
    private final Supplier<IoHandlerFactory> ioHandlers;
    private final Class<? extends ServerSocketChannel> serverChannel;
    private final Class<? extends SocketChannel> socketChannel;

    Transport(String label, Supplier<IoHandlerFactory> ioHandlers, Class<? extends ServerSocketChannel> serverChannel,
              Class<? extends SocketChannel> socketChannel) {
        this.label = label;
        this.ioHandlers = ioHandlers;
        this.serverChannel = serverChannel;
        this.socketChannel = socketChannel;
    }

    /** Epoll when it is available here, NIO otherwise. */
    public static Transport preferred() {
        return EPOLL.isAvailable() ? EPOLL : NIO;
    }

    /** Whether this transport can run in this JVM (epoll needs Linux and its native library). */
    public boolean isAvailable() {
        return this == NIO || Epoll.isAvailable();
    }

    /** {@code epoll} or {@code nio}, as results and logs name it. */
    public String label() {
        return label;
    }

    /**
     * A group of {@code threads} event loops on this transport, as daemon threads named {@code name-P-N}
     * (0 threads: Netty's default of two per core). The caller shuts it down.
     *
     * @throws IllegalStateException if this transport is not {@linkplain #isAvailable() available}
     */
    public EventLoopGroup newGroup(int threads, String name) {
        if (!isAvailable()) {
            throw new IllegalStateException("the " + label + " transport is not available here: " + Epoll.unavailabilityCause());
        }
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), ioHandlers.get());
    }

    /** The listening socket channel class that runs on this transport's groups. */
    public Class<? extends ServerSocketChannel> serverChannelClass() {
        return serverChannel;
    }

    /** The client socket channel class that runs on this transport's groups. */
    public Class<? extends SocketChannel> socketChannelClass() {
        return socketChannel;
    }

    /**
     * A server bootstrap on {@code group} (a group of this transport) with the options every EdgeLab
     * HTTP listener uses: a backlog of 1024, address reuse and TCP_NODELAY on accepted connections.
     */
    public ServerBootstrap serverBootstrap(EventLoopGroup group) {
        return new ServerBootstrap()
                .group(group)
                .channel(serverChannel)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true);
    }
}
