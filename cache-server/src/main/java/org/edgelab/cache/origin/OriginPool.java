package org.edgelab.cache.origin;

import java.util.ArrayDeque;

/**
 * The idle keep-alive connections to the origin of one event loop. Confined to that loop: only
 * the loop's own thread touches it, so it needs no lock.
 */
final class OriginPool {

    private final int maxIdle;
    private final ArrayDeque<OriginConnection> idle = new ArrayDeque<>();

    OriginPool(int maxIdle) {
        this.maxIdle = maxIdle;
    }

    /** Returns the most recently used idle connection that is still open, or null. */
    OriginConnection poll() {
        OriginConnection conn;
        while ((conn = idle.pollLast()) != null) {
            if (conn.channel().isActive()) {
                return conn;
            }
        }
        return null;
    }

    /** Returns a connection whose exchange ended cleanly to the pool, or closes it when full. */
    void release(OriginConnection conn) {
        if (idle.size() >= maxIdle) {
            conn.channel().close();
        } else {
            idle.addLast(conn);
        }
    }

    /** Drops a connection that closed. */
    void forget(OriginConnection conn) {
        idle.remove(conn);
    }

    /** Closes every idle connection. */
    void closeAll() {
        OriginConnection conn;
        while ((conn = idle.pollFirst()) != null) {
            conn.channel().close();
        }
    }
}
