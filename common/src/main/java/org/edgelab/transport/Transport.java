package org.edgelab.loadgen.client;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/** Picks the native epoll transport when available, NIO otherwise. Stateless and thread-safe. */
public final class Transports {
    private Transports() {
    }

    /** "epoll" or "nio". */
    public static String name() {
        return Epoll.isAvailable() ? "epoll" : "nio";
    }

    /** A group of {@code threads} event loops named {@code loadgen-N}. */
    public static EventLoopGroup newGroup(int threads, String name) {
        DefaultThreadFactory factory = new DefaultThreadFactory(name, true);
        return Epoll.isAvailable()
                ? new MultiThreadIoEventLoopGroup(threads, factory, EpollIoHandler.newFactory())
                : new MultiThreadIoEventLoopGroup(threads, factory, NioIoHandler.newFactory());
    }

    /** The client socket channel class matching {@link #newGroup}. */
    public static Class<? extends SocketChannel> channelClass() {
        return Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
