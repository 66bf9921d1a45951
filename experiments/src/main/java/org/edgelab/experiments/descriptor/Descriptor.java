package org.edgelab.experiments.descriptor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.edgelab.experiments.client.ClientChoice;
import org.edgelab.experiments.power.PowerMeter;
import org.edgelab.experiments.power.PowerModels;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.plugin.PluginSettings;

/**
 * A validated experiment with every default applied: what {@code ExperimentRunner} runs. Built by
 * {@code DescriptorLoader} (package {@code descriptor.yaml}). Immutable and thread-safe.
 *
 * @param name        experiment name
 * @param kind        the experiment plugin that runs it ({@code matrix} by default, e.g. {@code video-streams})
 * @param settings    settings of that experiment plugin (top-level {@code settings:})
 * @param description one line
 * @param source      the main descriptor's file or resource name
 * @param sourceText  the main descriptor's text, copied into results
 * @param quick       whether the {@code quick} overlay was applied
 * @param seed        seed of every random choice
 * @param repetitions runs per cell (>= 1)
 * @param target      where the systems under test run ({@code embedded})
 * @param servers     the builds compared (those whose engine is present)
 * @param notes       remarks for the user, e.g. optional builds skipped because their engine is absent
 * @param load        the load profile
 * @param hardware    the hardware assumptions
 * @param matrix      the dimensions that cross, outermost first
 */
public record Descriptor(String name, String kind, Map<String, String> settings, String description, String source, String sourceText, boolean quick, long seed,
                         int repetitions, String target, List<ServerBuild> servers, List<String> notes,
                         LoadProfile load, Hardware hardware, List<String> matrix) {

    /** Dimension names a matrix may cross. */
    public static final List<String> DIMENSIONS = List.of("server", "object_size", "connections", "range_size", "link", "client");

    public Descriptor {
        settings = Map.copyOf(settings);
        servers = List.copyOf(servers);
        notes = List.copyOf(notes);
        matrix = List.copyOf(matrix);
    }

    /**
     * The load profile with defaults applied.
     *
     * @param connections    connection counts (fan out)
     * @param threads        load generator event loops
     * @param duration       measured run length per repetition (the cap, when {@code requests} is set)
     * @param requests       the measured run of each repetition ends after this many requests (at {@code duration}
     *                       if that comes first); 0 for no bound
     * @param timeout        per-request timeout
     * @param rate           open-loop rate text, or null for closed loop
     * @param warmUp         warm the cache before each repetition
     * @param settle         unrecorded load before each repetition's measurement: none, fixed, or until req/s is steady
     * @param objectSizes    object sizes (fan out)
     * @param workingSet     bytes of the warmed object set
     * @param maxObjects     upper bound on the object count
     * @param popularity     {@code uniform} or {@code zipf:ALPHA}
     * @param targetHitRatio 0..1, or NaN for none
     * @param rangeSizes     range sizes, 0 = full fetch (fan out)
     * @param links          client links (fan out)
     * @param workloadKind   the workload plugin ({@code objects} by default, {@code trace}, {@code video})
     * @param workloadSettings that plugin's settings, prepared (relative paths resolved)
     * @param clients        the load clients that send the measured load ({@code loadgen} by default; fan out),
     *                       those that cannot run on this machine left out with a note
     */
    public record LoadProfile(List<Integer> connections, int threads, Duration duration, long requests, Duration timeout, String rate,
                              boolean warmUp, Settle settle, List<ByteSizeValue> objectSizes, long workingSet, long maxObjects,
                              String popularity, double targetHitRatio, List<ByteSizeValue> rangeSizes,
                              List<Link> links, String workloadKind, Map<String, String> workloadSettings,
                              List<ClientChoice> clients) {
        public LoadProfile {
            workloadSettings = Map.copyOf(workloadSettings);
            clients = List.copyOf(clients);
            connections = List.copyOf(connections);
            objectSizes = List.copyOf(objectSizes);
            rangeSizes = List.copyOf(rangeSizes);
            links = List.copyOf(links);
        }
    }

    /**
     * An emulated client link.
     *
     * @param name          label in cell ids and results
     * @param bitsPerSecond bandwidth, 0 for unlimited
     * @param oneWayLatency added one-way latency
     * @param emulation     {@code kernel} or {@code user-space} (org.edgelab.link.NetworkLinks)
     * @param fallback      true when a kernel link that cannot be made here may become a user-space one
     * @param bufferBytes   each direction's shaper queue in bytes, 0 for the default
     */
    public record Link(String name, long bitsPerSecond, Duration oneWayLatency, String emulation, boolean fallback,
                       long bufferBytes) {
        /** No emulation. */
        public static final Link NONE = new Link("none", 0, Duration.ZERO);

        /** A kernel link without fallback and with the default buffer. */
        public Link(String name, long bitsPerSecond, Duration oneWayLatency) {
            this(name, bitsPerSecond, oneWayLatency, "kernel", false, 0);
        }

        /** True when neither a cap nor a delay is set: nothing is emulated. */
        public boolean isNone() {
            return bitsPerSecond == 0 && oneWayLatency.isZero();
        }
    }

    /**
     * Hardware assumptions.
     *
     * @param name        profile name
     * @param description where the facts come from
     * @param cores       CPU cores
     * @param memoryBytes RAM, 0 when not stated
     * @param disks       directories for disk engines (may be empty)
     * @param link        the node's link
     * @param power       the power model and its settings
     */
    public record Hardware(String name, String description, int cores, long memoryBytes, List<String> disks,
                           Link link, Power power) {
        public Hardware {
            disks = List.copyOf(disks);
        }

        /** A meter of this profile's power model (one that gives no figures for {@code none}). */
        public PowerMeter powerMeter() {
            return PowerModels.meter(power.model(), PluginSettings.of(power.settings()), name);
        }
    }

    /**
     * The power model a hardware profile selects: a {@code PowerModel} plugin name and its settings (the
     * power block's other keys, e.g. {@code idle_w} for {@code linear}).
     *
     * @param model    plugin name ({@code linear}, {@code rapl}), or {@code none}
     * @param settings the plugin's settings
     */
    public record Power(String model, Map<String, String> settings) {
        /** No power figures at all. */
        public static final Power NONE = new Power(PowerModels.NONE, Map.of());

        public Power {
            settings = Map.copyOf(settings);
        }
    }
}
