package org.edgelab.experiments.target;

import java.util.Map;

/**
 * A server build as a {@link Target} receives it: a name, the target that runs it, the storage engine
 * (or, for a peer, the peer's storage) and the settings of both. Immutable and thread-safe.
 *
 * @param name           name in results
 * @param target         where it runs: a {@code Target} plugin name ({@code embedded} by default)
 * @param engine         storage engine name, or {@link #NO_CACHE} for the baseline without a cache; for a
 *                       peer target, the peer's storage (e.g. {@code malloc} or {@code file} for Varnish)
 * @param settings       engine settings ({@code ${store}} is replaced by the build's directory at run time)
 * @param targetSettings settings of the target (what they mean is the target's to say)
 * @param topology       the cache tiers and load workers this build runs, on a target that runs topologies; null for
 *                       one cache in front of one origin (every other build). With a topology, {@code engine} and
 *                       {@code settings} are the edge tier's build's
 */
public record ServerBuild(String name, String target, String engine, Map<String, String> settings,
                          Map<String, String> targetSettings, Topology topology) {

    /** The engine name of the no-cache baseline: clients fetch straight from the origin. */
    public static final String NO_CACHE = "none";

    public ServerBuild {
        settings = Map.copyOf(settings);
        targetSettings = Map.copyOf(targetSettings);
    }

    /** A build of one cache (no topology). */
    public ServerBuild(String name, String target, String engine, Map<String, String> settings, Map<String, String> targetSettings) {
        this(name, target, engine, settings, targetSettings, null);
    }

    /** A build on the default {@code embedded} target. */
    public ServerBuild(String name, String engine, Map<String, String> settings) {
        this(name, Targets.DEFAULT, engine, settings, Map.of());
    }

    /** Whether this build runs a {@link Topology} of tiers rather than one cache. */
    public boolean hasTopology() {
        return topology != null;
    }

    /** Whether this is the no-cache baseline. */
    public boolean noCache() {
        return engine.equals(NO_CACHE);
    }
}
