package org.edgelab.link.kernel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether this machine can emulate a link in the kernel: root, {@code /dev/net/tun}, iproute2 ({@code ip},
 * {@code tc}) and Linux. Cheap checks only; what the kernel itself lacks (a qdisc, veth) shows as a
 * {@link KernelLinkException} naming the failing command when a link is opened. Stateless, thread-safe.
 */
public final class KernelSupport {
    /** Set to 1 (as CI does) to make root features fail instead of skip when they cannot run. */
    public static final String REQUIRE_ROOT = "EDGELAB_REQUIRE_ROOT";

    private KernelSupport() {
    }

    /** Why a kernel link cannot be made here (what is missing), or empty when it can. */
    public static Optional<String> unavailableReason() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return Optional.of("a kernel link needs Linux (network namespaces), this is " + System.getProperty("os.name"));
        }
        if (!isRoot()) {
            return Optional.of("a kernel link needs root (network namespaces, veth pairs, tbf, a TUN device); running as uid "
                    + uid());
        }
        if (!Files.exists(Path.of("/dev/net/tun"))) {
            return Optional.of("a kernel link needs /dev/net/tun (the TUN driver) for its delay line");
        }
        for (String tool : new String[]{"ip", "tc"}) {
            if (!onPath(tool)) {
                return Optional.of("a kernel link needs '" + tool + "' from iproute2 (apt-get install iproute2)");
            }
        }
        return Optional.empty();
    }

    /** True when {@link #REQUIRE_ROOT} is 1: a kernel link that cannot be made must fail, not be skipped. */
    public static boolean rootRequired() {
        return "1".equals(System.getenv(REQUIRE_ROOT));
    }

    private static boolean isRoot() {
        return "0".equals(uid());
    }

    private static String uid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.substring(4).trim().split("\\s+")[1];
                }
            }
        } catch (java.io.IOException e) {
            return "unknown";
        }
        return "unknown";
    }

    private static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        for (String dir : (path + ":/usr/sbin:/sbin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
