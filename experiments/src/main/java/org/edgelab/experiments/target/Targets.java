package org.edgelab.experiments.target;

import java.util.Collection;
import java.util.Optional;
import org.edgelab.plugin.PluginRegistry;

/**
 * The registry of {@link Target} plugins, found through {@code ServiceLoader}
 * ({@code META-INF/services/org.edgelab.experiments.target.Target}); an unknown name fails loudly
 * with the known names. Thread-safe.
 */
public final class Targets {

    /** The target used when a descriptor names none. */
    public static final String DEFAULT = "embedded";
    /**
     * The target of EdgeLab's builds when a descriptor names none and another build that runs has a
     * target of its own (a peer in its own processes): each cache in its own JVM, like with like.
     */
    public static final String BESIDE_PEERS = "process";

    private static final class Holder {
        static final PluginRegistry<Target> REGISTRY = PluginRegistry.load("target", Target.class);
    }

    private Targets() {
    }

    /** The target named {@code name}, or {@code UnknownPluginException} listing the known ones. */
    public static Target get(String name) {
        return Holder.REGISTRY.get(name);
    }

    /** Every registered target, sorted by name. */
    public static Collection<Target> all() {
        return Holder.REGISTRY.all();
    }

    /**
     * Checks every build can run on this machine now; throws {@link IllegalStateException} naming the first
     * that cannot and what it lacks (for example the package to install), before a run starts anything.
     */
    public static void requireAvailable(Collection<ServerBuild> builds) {
        for (ServerBuild build : builds) {
            Optional<String> unavailable = get(build.target()).unavailableReason(build);
            if (unavailable.isPresent()) {
                throw new IllegalStateException("server '" + build.name() + "' (target " + build.target()
                        + ") cannot run on this machine: " + unavailable.get());
            }
        }
    }

    /** The registered names, sorted. */
    public static Collection<String> names() {
        return Holder.REGISTRY.names();
    }
}
