package org.edgelab.cache.origin;

import java.io.IOException;

/** Why an origin exchange failed; {@link #kind()} decides whether a client sees 502 or 504. Immutable. */
public final class OriginException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Classes of origin failure. */
    public enum Kind {
        /** Could not connect (refused, unreachable, connect timeout). */
        CONNECT,
        /** The origin stopped sending for longer than the response timeout. */
        TIMEOUT,
        /** The connection was reset or closed early, or the response could not be parsed. */
        BROKEN
    }

    private final Kind kind;

    public OriginException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** Returns the class of failure. */
    public Kind kind() {
        return kind;
    }
}
