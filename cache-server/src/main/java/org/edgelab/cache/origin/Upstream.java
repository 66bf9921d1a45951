package org.edgelab.cache.origin;

import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.edgelab.cache.admin.UpstreamStats;

/**
 * One upstream of the cache (an origin or a parent cache): its connections, whether it is up, and its
 * counters (requests and failures are its {@link HostClient}'s own, counted there). Marked down when it
 * refuses a connection or fails a request before answering; taken back when a probe connects or a
 * request gets an answer. Thread-safe: the state is atomic, the counters striped; no call blocks.
 */
final class Upstream {

    private final URI uri;
    private final String authority;
    private final HostClient client;
    private final AtomicBoolean up = new AtomicBoolean(true);
    private final AtomicBoolean probing = new AtomicBoolean();
    private final LongAdder markedDown = new LongAdder();
    private final LongAdder takenBack = new LongAdder();
    private final LongAdder probes = new LongAdder();

    Upstream(URI uri, String authority, HostClient client) {
        this.uri = uri;
        this.authority = authority;
        this.client = client;
    }

    URI uri() {
        return uri;
    }

    /** The {@code host[:port]} it is named by (in its ring and its figures) and sent in Host. */
    String authority() {
        return authority;
    }

    HostClient client() {
        return client;
    }

    boolean isUp() {
        return up.get();
    }

    /**
     * Marks it down after an exchange that failed before any response (the failure itself is counted by
     * its client); returns true when this marked it down (it was up).
     */
    boolean markDown() {
        if (up.compareAndSet(true, false)) {
            markedDown.increment();
            return true;
        }
        return false;
    }

    /** It answered (a response, or a probe's connection): up again if it was down. */
    void answered() {
        if (!up.get() && up.compareAndSet(false, true)) {
            takenBack.increment();
        }
    }

    /** Claims the probe chain of this upstream; false when one is already running. */
    boolean startProbing() {
        return probing.compareAndSet(false, true);
    }

    void stopProbing() {
        probing.set(false);
    }

    void probed() {
        probes.increment();
    }

    UpstreamStats stats() {
        return new UpstreamStats(authority, up.get() ? "up" : "down", client.requests(), client.failures(),
                markedDown.sum(), takenBack.sum(), probes.sum());
    }
}
