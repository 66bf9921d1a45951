package org.edgelab.cache.archfixture;

import org.edgelab.origin.OriginServer;

/** A cache-server class that uses the origin module, for the test that the layering rule catches it (never run). */
public final class UsesTheOrigin {
    /** Where an origin listens. */
    public int port(OriginServer origin) {
        return origin.port();
    }
}
