package org.edgelab.experiments.descriptor.yaml;

import java.util.List;
import java.util.Map;
import org.edgelab.experiments.descriptor.ByteSizeValue;

/**
 * One descriptor file exactly as written, bound from YAML with every field optional (an include or
 * default may supply it). Field names are snake_case in YAML. {@link DescriptorLoader} merges the
 * files and resolves the result into a {@link Descriptor}. Immutable records; thread-safe.
 *
 * @param name        experiment name (results go to {@code results/<name>/...})
 * @param kind        the experiment plugin that runs it: {@code matrix} (the default) or e.g. {@code video-streams}
 * @param settings    settings of that experiment plugin
 * @param description one line saying what the experiment compares
 * @param includes    descriptors merged under this one, in order: a built-in name ({@code varnish-edge},
 *                    {@code hardware/local}) or a path relative to this file
 * @param seed        seed of every random choice
 * @param repetitions runs per cell
 * @param target      where the systems under test run (a target plugin; {@code embedded} by default)
 * @param targetSettings settings of the target, for every build
 * @param builds      server builds that topologies' tiers name ({@code servers[].topology.tiers[].build}); not
 *                    cells of their own
 * @param servers     the server builds compared
 * @param load        the load profile
 * @param hardware    hardware assumptions (cores, memory, disks, link, power model)
 * @param matrix      the dimensions that cross, outermost first
 * @param quick       fields laid over this descriptor by {@code --quick}
 */
public record DescriptorSpec(String name, String kind, Map<String, String> settings, String description, List<String> includes, Long seed, Integer repetitions,
                             String target, Map<String, String> targetSettings, List<Server> builds, List<Server> servers, Load load, Hardware hardware, List<String> matrix,
                             DescriptorSpec quick) {

    /**
     * A server build.
     *
     * @param name     the build's name in results (defaults to the engine)
     * @param engine   storage engine name, found through {@code StorageEngines}; {@code none} is the baseline
     *                 without a cache (clients fetch straight from the origin, like report B's raw server)
     * @param settings engine settings (memory tier, eviction policy and sizes are settings of the engine);
     *                 the value {@code ${store}} stands for the build's own directory for engine files
     * @param optional skip the build with a note, instead of failing, when its engine is not on the class path
     *                 or its target cannot run on this machine (a peer's binary is not installed)
     * @param target   where this build runs, overriding the descriptor's {@code target}
     * @param targetSettings settings of the target (e.g. {@code url} for {@code external}, {@code cpus} for
     *                 {@code process}), laid over the descriptor's {@code target_settings}
     * @param topology cache tiers and load workers instead of one cache (no {@code engine} then): on a target that runs
     *                 topologies ({@code netns})
     */
    public record Server(String name, String engine, Map<String, String> settings, Boolean optional, String target,
                         Map<String, String> targetSettings, TopologySpec topology) {
    }

    /**
     * A topology as written.
     *
     * @param workers load workers (default 1), at most each cell's connections
     * @param tiers   the tiers, the edge first
     */
    public record TopologySpec(Integer workers, List<TierSpec> tiers) {
    }

    /**
     * A tier as written.
     *
     * @param name     the tier's name ([a-z0-9-], a letter first, at most 12), in node names and result columns
     * @param build    the name of an entry of {@code builds:}
     * @param replicas nodes running it (default 1)
     * @param parent   the tier its misses go to; absent: the origin
     */
    public record TierSpec(String name, String build, Integer replicas, String parent) {
    }

    /**
     * The load profile.
     *
     * @param connections open connections (a list fans out)
     * @param threads     load generator event loops (at most one per connection in each cell)
     * @param duration    measured run length per repetition: with {@code requests}, its cap
     * @param requests    the measured run of each repetition ends after this many requests, or at {@code duration}
     *                    if that comes first (so {@code duration} stays its cap); a whole number, at least 0, and
     *                    0 or absent for no bound (only {@code duration} ends it). Only the measured run: the
     *                    warm-up and the settle are not bounded by it. Client {@code loadgen} only
     * @param timeout     per-request timeout
     * @param rate        open-loop rate ({@code 1000}, {@code 100..1000}); absent for closed loop
     * @param warmUp      warm the cache before each repetition (see {@link Workload#targetHitRatio})
     * @param settle      how long the measured load runs unrecorded before each repetition's measurement
     *                    (JIT, page cache and connections reach their steady state): a duration, or {@code auto}
     *                    (until req/s is steady; {@link SettleValue}); absent for none
     * @param workload    what is requested
     * @param links       emulated client links (a list fans out)
     * @param client      what sends the measured load: {@code loadgen} (the default), {@code wrk}, {@code wrk2}, ...
     *                    (a list fans out); the warm-up is always loadgen's
     */
    public record Load(List<Integer> connections, Integer threads, DurationValue duration, Long requests, DurationValue timeout,
                       String rate, Boolean warmUp, SettleValue settle, Workload workload, List<Link> links,
                       List<ClientValue> client) {
    }

    /**
     * What the load generator requests.
     *
     * @param objectSizes    object sizes (a list fans out)
     * @param workingSet     bytes of the object set that warm-up puts in the cache; objects = working set / size
     * @param maxObjects     upper bound on the object count
     * @param popularity     {@code uniform} or {@code zipf:ALPHA}
     * @param targetHitRatio 0..1: each request goes to a never-seen object with probability 1 - target,
     *                       otherwise to the warmed set
     * @param rangeSizes     range request sizes; 0 means full fetches (a list fans out)
     * @param kind           the workload plugin: {@code objects} (the default), {@code trace}, {@code video}
     * @param settings       that plugin's settings
     */
    public record Workload(List<ByteSizeValue> objectSizes, ByteSizeValue workingSet, Long maxObjects,
                           String popularity, Double targetHitRatio, List<ByteSizeValue> rangeSizes, String kind,
                           Map<String, String> settings) {
    }

    /**
     * A network link.
     *
     * @param name      label in results (defaults to the bandwidth and latency)
     * @param bandwidth bits per second ({@code 1gbit}); 0 for unlimited
     * @param latency   one-way latency
     * @param emulation {@code kernel} (namespaces, veth, tbf, a TUN delay line; the default) or {@code user-space}
     * @param fallback  {@code user-space}: where a kernel link cannot be made, use the user-space one (and say so);
     *                  absent or {@code none}: fail naming what is missing
     * @param buffer    the queue of each direction's shaper (default 20 ms at the link's rate)
     */
    public record Link(String name, BandwidthValue bandwidth, DurationValue latency, String emulation, String fallback,
                       ByteSizeValue buffer) {
    }

    /**
     * Hardware assumptions.
     *
     * @param name        profile name
     * @param description what machine this is and where the facts come from
     * @param cores       CPU cores
     * @param memory      RAM
     * @param disks       directories, one per disk, that disk engines use (empty: a directory under the results)
     * @param link        the node's network link
     * @param power       the power model: {@code model} (a power model plugin, {@code linear} by default) and
     *                    that model's settings ({@code idle_w}, {@code w_per_busy_core}, ... for {@code linear})
     */
    public record Hardware(String name, String description, Integer cores, ByteSizeValue memory, List<String> disks,
                           Link link, Map<String, String> power) {
    }
}
