package org.edgelab.link;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.edgelab.link.kernel.KernelLink;
import org.edgelab.link.kernel.KernelSupport;

/**
 * Opens a {@link NetworkLink} by the emulation a descriptor or a command line names: {@code kernel} (namespaces,
 * veth, tbf and a TUN delay line; root needed) or {@code user-space} (the load's sockets shape). A kernel link this
 * machine cannot make fails naming what is missing, unless a fallback to user space is allowed; then the link says
 * why it fell back. Stateless, thread-safe; {@link #open} blocks while a kernel link is made.
 */
public final class NetworkLinks {
    /** The emulations by name. */
    public static final List<String> EMULATIONS = List.of(KernelLink.EMULATION, UserSpaceLink.EMULATION);

    private NetworkLinks() {
    }

    /** Checks an emulation name; throws IllegalArgumentException listing the known ones. */
    public static String checkEmulation(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (!EMULATIONS.contains(n)) {
            throw new IllegalArgumentException("unknown link emulation '" + name + "'; known: " + String.join(", ", EMULATIONS));
        }
        return n;
    }

    /** Why a kernel link cannot be made here, or empty. */
    public static Optional<String> kernelUnavailable() {
        return KernelSupport.unavailableReason();
    }

    /**
     * Opens a link of {@code shape} emulated as {@code emulation}; with {@code fallback}, a kernel link that cannot be
     * made here (or that {@code blocker} rules out: a server that cannot run in a namespace) becomes a user-space link.
     *
     * @param blocker why the kernel way cannot serve this run apart from the machine (empty when it can)
     */
    public static NetworkLink open(LinkShape shape, String emulation, boolean fallback, Optional<String> blocker) {
        String e = checkEmulation(emulation);
        if (e.equals(UserSpaceLink.EMULATION)) {
            return new UserSpaceLink(shape, "");
        }
        Optional<String> missing = blocker.isPresent() ? blocker : KernelSupport.unavailableReason();
        if (missing.isPresent()) {
            if (fallback) {
                return new UserSpaceLink(shape, "fell back from the kernel: " + missing.get());
            }
            throw new LinkUnavailableException("a kernel link (" + shape.describe() + ") cannot be made: " + missing.get()
                    + "; allow the user-space fallback (link 'fallback: user-space') or run as root with iproute2");
        }
        return KernelLink.open(shape);
    }
}
