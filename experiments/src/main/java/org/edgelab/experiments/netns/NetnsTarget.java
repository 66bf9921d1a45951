package org.edgelab.experiments.netns;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.edgelab.experiments.process.ProcessCpu;
import org.edgelab.experiments.target.BuildValidationException;
import org.edgelab.experiments.target.EdgeLabBuilds;
import org.edgelab.experiments.target.ProcessTarget;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.TargetSettings;
import org.edgelab.experiments.target.Topology;
import org.edgelab.link.kernel.Fabric;
import org.edgelab.link.kernel.KernelSupport;
import org.edgelab.loadgen.Segment;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;
import org.edgelab.units.ByteSize;
import org.edgelab.units.Durations;

/**
 * The {@code netns} target: runs a build's {@link Topology} for real on this machine. The origin, every cache node of
 * every tier (each an {@code edgelab serve} JVM) and every load worker (loadgen's event loops in the runner's JVM) get a
 * network namespace of their own, joined by veth pairs through the hub of one kernel {@link Fabric} (addresses in
 * 198.18.0.0/15), which is removed after the cell, also after a failure. Edges fetch misses from the parent tier's
 * consistent-hash ring ({@code --upstream}, {@code --preserve-host}), the last tier from the origin; the workers send each
 * request to the edge the same ring over the edges names, start at one barrier, and are merged ({@link TopologyNodes}).
 * Needs root, {@code /dev/net/tun} and iproute2. Stateless and thread-safe; {@link #start} blocks until every node answers.
 */
public final class NetnsTarget implements Target {
    static final String HEAP = "heap";
    static final String IO_THREADS = "io_threads";
    static final String START_LEAD = "start_lead";

    /** The settings every build of this target takes. */
    static final List<Setting> SETTINGS = List.of(
            new Setting(HEAP, "1g", "each cache node JVM's -Xmx (it also bounds direct memory, where the memory engine keeps objects)"),
            new Setting(IO_THREADS, "1", "event loops of each cache node and of the origin (0: one per core)"),
            new Setting(START_LEAD, "2s", "how long before the workers' common start barrier it is set: time for every worker to connect"));

    @Override
    public String name() {
        return "netns";
    }

    @Override
    public String description() {
        return "a topology (load workers, cache tiers, origin) each node in its own network namespace on this machine (root;"
                + " target_settings: heap, io_threads, start_lead)";
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    @Override
    public boolean runsTopologies() {
        return true;
    }

    @Override
    public void validate(ServerBuild build) {
        if (!build.hasTopology()) {
            throw new BuildValidationException("topology", "the netns target runs a topology: give the build a topology: of"
                    + " workers and tiers");
        }
        Settings settings = Settings.of(build.targetSettings());
        Topology topology = build.topology();
        int nodes = 1 + topology.nodes() + topology.workers();
        if (nodes > Fabric.MAX_NODES) {
            throw new BuildValidationException("topology", "the topology has " + nodes + " nodes (origin, caches, workers); one"
                    + " fabric holds at most " + Fabric.MAX_NODES);
        }
        for (int i = 0; i < topology.tiers().size(); i++) {
            try {
                EdgeLabBuilds.validate(topology.tiers().get(i).build());
            } catch (BuildValidationException e) {
                throw new BuildValidationException("topology/tiers/" + i + "/build", "build '" + topology.tiers().get(i).build().name()
                        + "': " + e.getMessage());
            }
            ProcessTarget.requireHeapFits(topology.tiers().get(i).build(), settings.heapBytes(), "target_settings/" + HEAP);
        }
    }

    @Override
    public void validateLoad(ServerBuild build, List<Integer> connections, String workloadKind) {
        for (int c : connections) {
            try {
                Segment.checkConnections(build.topology().workers(), c);
            } catch (IllegalArgumentException e) {
                throw new BuildValidationException("topology/workers", e.getMessage() + " (load.connections); give fewer workers"
                        + " or more connections");
            }
        }
    }

    @Override
    public Optional<String> unavailableReason(ServerBuild build) {
        for (Topology.Tier tier : build.topology().tiers()) {
            Optional<String> engine = EdgeLabBuilds.unavailableReason(tier.build());
            if (engine.isPresent()) {
                return engine;
            }
        }
        if (!ProcessCpu.available()) {
            return Optional.of("/proc/<pid>/stat is not readable: the netns target measures the cache nodes' CPU time there (Linux only)");
        }
        return KernelSupport.unavailableReason().map(r -> "the netns target puts every node in a network namespace: " + r);
    }

    @Override
    public RunningTarget start(ServerBuild build, TargetContext context) throws IOException {
        return TopologyNodes.start(build, context, Settings.of(build.targetSettings()));
    }

    /**
     * A build's target settings, read and checked once.
     *
     * @param heapBytes each cache node's -Xmx
     * @param ioThreads each cache node's and the origin's event loops
     * @param startLead how far ahead of the workers' connects their start barrier is
     */
    record Settings(long heapBytes, int ioThreads, Duration startLead) {
        static Settings of(Map<String, String> settings) {
            TargetSettings.requireOnly("netns", settings, SETTINGS);
            PluginSettings s = PluginSettings.of(settings);
            try {
                long heap = s.bytes(HEAP, 1L << 30);
                if (heap < (64L << 20)) {
                    throw new SettingException(HEAP, "heap " + ByteSize.format(heap) + " is too small for a cache JVM; at least 64m");
                }
                Duration lead = s.duration(START_LEAD, Duration.ofSeconds(2));
                if (lead.isNegative() || lead.isZero() || lead.compareTo(Duration.ofMinutes(1)) > 0) {
                    throw new SettingException(START_LEAD, "start_lead must be above 0 and at most 1m, got " + Durations.format(lead));
                }
                return new Settings(heap, s.integer(IO_THREADS, 1, 0, 1024), lead);
            } catch (SettingException e) {
                throw new BuildValidationException("target_settings/" + e.key(), e.getMessage());
            }
        }
    }
}
