package org.edgelab.cache.origin;

import io.netty.channel.Channel;
import java.util.ArrayDeque;

/**
 * The idle keep-alive connections to the origin of one event loop. Confined to that loop: only
 * the loop's own thread touches it, so it needs no lock.
 */
final class OriginPool {

    private final int maxIdle;
    private final ArrayDeque<Channel> idle = new ArrayDeque<>();

    OriginPool(int maxIdle) {
        this.maxIdle = maxIdle;
    }

    /** Returns the most recently used idle connection that is still open, or null. */
    Channel poll() {
        Channel ch;
        while ((ch = idle.pollLast()) != null) {
            if (ch.isActive()) {
                return ch;
            }
        }
        return null;
    }

    /** Returns a connection whose exchange ended cleanly to the pool, or closes it when full. */
    void release(Channel ch, OriginConnection conn) {
        if (idle.size() >= maxIdle) {
            ch.close();
        } else {
            idle.addLast(ch);
        }
    }

    /** Drops a connection that closed. */
    void forget(Channel ch) {
        idle.remove(ch);
    }

    /** Closes every idle connection. */
    void closeAll() {
        Channel ch;
        while ((ch = idle.pollFirst()) != null) {
            ch.close();
        }
    }
}
