package org.edgelab.loadgen.link;

import java.util.Optional;

import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.plugin.NamedPlugin;

/**
 * A way to emulate a {@link LinkEmulation} (a plugin found by name through {@link LinkEmulators}): in user
 * space on the client's sockets ({@code user-space}), or, later, in the kernel (network namespaces, a veth
 * pair, {@code tbf}/{@code htb} and a delay line).
 *
 * <p>Implementations are stateless and thread-safe; {@link #open} may block while it sets the link up.
 */
public interface LinkEmulator extends NamedPlugin {
    /** Why this emulator cannot emulate {@code link} on this machine (what is missing), or empty when it can. */
    Optional<String> unavailable(LinkEmulation link);

    /** Sets {@code link} up for one load; the caller closes it after the load. */
    Link open(LinkEmulation link);
}
