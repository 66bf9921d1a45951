package org.edgelab.link;

import java.util.Optional;

/**
 * The user-space link: both sides on the host's loopback, the shaping and delay left to the load's own sockets (the
 * load generator's link shared by every connection of a load). A TCP connect does not see a delay added above the
 * sockets, so {@link #probe} is empty. Immutable, thread-safe.
 */
public final class UserSpaceLink implements NetworkLink {
    /** The emulation's name in results. */
    public static final String EMULATION = "user-space";

    private final LinkShape shape;
    private final String note;

    /** A user-space link of {@code shape}; {@code note} says why (empty, or the reason the kernel way was not taken). */
    public UserSpaceLink(LinkShape shape, String note) {
        this.shape = shape;
        this.note = note == null ? "" : note;
    }

    @Override
    public String emulation() {
        return EMULATION;
    }

    @Override
    public LinkShape shape() {
        return shape;
    }

    @Override
    public Endpoint client() {
        return HostEndpoint.LOOPBACK;
    }

    @Override
    public Endpoint server() {
        return HostEndpoint.LOOPBACK;
    }

    @Override
    public boolean shapedByLoad() {
        return true;
    }

    @Override
    public LinkCounters counters() {
        return LinkCounters.ZERO;
    }

    @Override
    public Optional<RoundTrip> probe(int samples) {
        return Optional.empty();
    }

    /** Why the kernel way was not taken, or empty. */
    public String note() {
        return note;
    }

    @Override
    public String describe() {
        return "user-space link (shaped by the load's sockets): " + shape.describe() + (note.isEmpty() ? "" : "; " + note);
    }

    @Override
    public void close() {
    }
}
