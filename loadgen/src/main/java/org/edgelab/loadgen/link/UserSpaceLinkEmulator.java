package org.edgelab.loadgen.link;

import java.util.Optional;

import org.edgelab.loadgen.LinkEmulation;

/**
 * The {@code user-space} link emulator: a {@link UserSpaceLink} on the client's own sockets. Works anywhere
 * (no root, no namespaces); the fallback where the kernel cannot emulate the link. Stateless and thread-safe.
 */
public final class UserSpaceLinkEmulator implements LinkEmulator {
    /** The name it is selected by. */
    public static final String NAME = "user-space";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one rate cap per direction shared by every connection, paced on the client's reads and writes"
                + " (the server sees slow readers), plus the one-way delay above the sockets";
    }

    @Override
    public Optional<String> unavailable(LinkEmulation link) {
        return Optional.empty();
    }

    @Override
    public Link open(LinkEmulation link) {
        return new UserSpaceLink(link);
    }
}
