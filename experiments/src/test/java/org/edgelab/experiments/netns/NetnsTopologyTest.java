package org.edgelab.experiments.netns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.edgelab.experiments.runner.KernelLinkRunTest;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.Targets;
import org.edgelab.experiments.target.Topology;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.loadgen.workers.LocalWorkers;
import org.edgelab.loadgen.workers.MergedLoad;
import org.edgelab.loadgen.workload.MeasuredOnly;
import org.edgelab.loadgen.workload.ObjectWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The netns cell CI runs (root): 3 load workers, 2 edges and 1 parent, each in its own network namespace with the
 * origin in another, 4 s of load. The merged figures are the workers' (counts summed, p99 of every sample), the
 * workers start within 50 ms of each other, the parent absorbs the edges' refetches so the origin sends each object once,
 * and every namespace and process is gone afterwards, also after a failed start.
 */
class NetnsTopologyTest {
    /** 8 KB objects: 300 of them (2.4 MB) do not fit an edge of 1 MiB, which must refetch from the parent. */
    private static final int OBJECTS = 300;
    /** The measured run. */
    private static final Duration RUN = Duration.ofSeconds(4);

    @TempDir
    Path dir;

    private static ServerBuild twoTiers(int workers) {
        ServerBuild edge = new ServerBuild("edge-mem", "netns", "memory", Map.of("capacity", "1MiB"), Map.of());
        ServerBuild parent = new ServerBuild("parent-mem", "netns", "memory", Map.of("capacity", "64MiB"), Map.of());
        Topology topology = new Topology(workers, List.of(new Topology.Tier("edge", edge, 2, "parent"),
                new Topology.Tier("parent", parent, 1, null)));
        // the workers' start barrier 0.5 s ahead of each load (not the default 2 s): ample to reach it, the skew is checked
        return new ServerBuild("two-tier", "netns", "memory", edge.settings(), Map.of("heap", "192m", "start_lead", "500ms"), topology);
    }

    /** Two edges straight to the origin: three JVMs to start where {@link #twoTiers} has four. */
    private static ServerBuild edgesOnly() {
        ServerBuild edge = new ServerBuild("edge-mem", "netns", "memory", Map.of("capacity", "1MiB"), Map.of());
        Topology topology = new Topology(1, List.of(new Topology.Tier("edge", edge, 2, null)));
        return new ServerBuild("edges", "netns", "memory", edge.settings(), Map.of("heap", "192m"), topology);
    }

    private TargetContext context(Duration startTimeout) throws IOException {
        return new TargetContext(Files.createDirectories(dir.resolve("stores")), Files.createDirectories(dir.resolve("work")), 2, 0,
                startTimeout);
    }

    @Test
    void threeWorkersTwoEdgesOneParentMergedAsOneLoad() throws Exception {
        KernelLinkRunTest.assumeKernelLinks();
        NetnsTarget target = (NetnsTarget) Targets.get("netns");
        ServerBuild build = twoTiers(3);
        target.validate(build);
        ObjectWorkload workload = ObjectWorkload.builder().objects(OBJECTS).sizes("8KB").targetHitRatio(1.0).namespace("cell").build();
        List<String> namespaces;
        Map<String, ServerCounters> before;
        Map<String, ServerCounters> after;
        LocalWorkers.Outcome run;
        try (TopologyNodes nodes = (TopologyNodes) target.start(build, context(Duration.ofSeconds(120)))) {
            namespaces = nodes.namespaces();
            assertThat(namespaces).hasSize(1 + 1 + 3 + 3); // hub, origin, 2 edges and a parent, 3 workers
            namespaces.forEach(n -> assertThat(Path.of("/var/run/netns", n)).exists());
            WorkersLoad load = new WorkersLoad(nodes);
            // the warm-up: every object once, through the edge the ring names, so the origin sends each once
            LocalWorkers.Outcome warm = load.send(LoadConfig.builder().url(nodes.clientUri()).connections(12).threads(1)
                    .duration(Duration.ofSeconds(60)).timeout(Duration.ofSeconds(20)).requests(OBJECTS)
                    .workload(new MeasuredOnly(workload.warmUp())));
            assertThat(warm.merged().counters().goodResponses()).isEqualTo(OBJECTS);
            before = nodes.tierCounters();
            assertThat(before.get("origin").requests()).isEqualTo(OBJECTS);
            run = load.send(LoadConfig.builder().url(nodes.clientUri()).connections(12).threads(1)
                    .duration(RUN).timeout(Duration.ofSeconds(20)).workload(new MeasuredOnly(workload)));
            after = nodes.tierCounters();
        }
        MergedLoad merged = run.merged();

        // every namespace removed, every process of the topology ended
        namespaces.forEach(n -> assertThat(Path.of("/var/run/netns", n)).doesNotExist());

        assertThat(run.workers()).hasSize(3);
        long sum = run.workers().stream().mapToLong(r -> r.counters().completed()).sum();
        assertThat(merged.requests()).isEqualTo(sum).isPositive();
        assertThat(merged.counters().totalErrors()).isZero();
        assertThat(merged.counters().goodResponses()).isEqualTo(sum); // every body verified byte by byte
        assertThat(merged.ttlb().getTotalCount()).isEqualTo(sum);
        // every interval each worker logged in its .hlog, added up apart from the merge
        Histogram all = new Histogram(3);
        for (int i = 0; i < 3; i++) {
            addIntervals(run.workers().get(i), dir.resolve("w" + i + ".hlog"), all);
        }
        assertThat(all.getTotalCount()).isEqualTo(sum);
        long p99OfAll = all.getValueAtPercentile(99);
        long mergedP99 = merged.ttlb().getValueAtPercentile(99);
        assertThat(merged.ttlb().valuesAreEquivalent(mergedP99, p99OfAll))
                .as("merged p99 %d ns, p99 of all %d samples %d ns", mergedP99, sum, p99OfAll).isTrue();
        assertThat(merged.startSkew()).isLessThan(Duration.ofMillis(50));
        // every worker sent for all but a second of the run at most
        assertThat(merged.windowSeconds()).isGreaterThan(RUN.toSeconds() - 1);

        // the edges saw every request; too small for the set, they refetched from the parent, which had every object:
        // the origin sent none again
        long edgeRequests = after.get("edge").requests() - before.get("edge").requests();
        long edgeMisses = after.get("edge").misses() - before.get("edge").misses();
        long parentHits = after.get("parent").hits() - before.get("parent").hits();
        // the edges also counted the requests the stop cut off in flight (sent, never completed); such a miss may have
        // reached the parent without the edge counting it as one
        long cutOff = merged.counters().sent() - sum;
        assertThat(edgeRequests).isBetween(sum, sum + cutOff);
        assertThat(edgeMisses).isPositive();
        assertThat(parentHits).isBetween(edgeMisses, edgeMisses + cutOff);
        assertThat(after.get("parent").misses() - before.get("parent").misses()).isZero();
        assertThat(after.get("origin").requests() - before.get("origin").requests()).isZero();
    }

    @Test
    void aFailedStartRemovesEveryNamespace() throws Exception {
        KernelLinkRunTest.assumeKernelLinks();
        NetnsTarget target = (NetnsTarget) Targets.get("netns");
        List<String> before = namespaces();
        // no JVM answers within a millisecond: the start gives up, and removes what it made
        assertThatThrownBy(() -> target.start(twoTiers(1), context(Duration.ofMillis(1)))).isInstanceOf(IOException.class);
        assertThat(namespaces()).isEqualTo(before);
    }

    @Test
    void aNodeThatDiesMidRunFailsTheReadsAndCloseStillRemovesEverything() throws Exception {
        KernelLinkRunTest.assumeKernelLinks();
        NetnsTarget target = (NetnsTarget) Targets.get("netns");
        List<String> before = namespaces();
        List<ProcessHandle> inside;
        try (TopologyNodes nodes = (TopologyNodes) target.start(edgesOnly(), context(Duration.ofSeconds(120)))) {
            String edge = nodes.namespaces().stream().filter(n -> n.endsWith("-edge-1")).findFirst().orElseThrow();
            inside = pidsIn(edge);
            assertThat(inside).isNotEmpty();
            inside.forEach(ProcessHandle::destroyForcibly); // the node crashes
            for (ProcessHandle p : inside) {
                p.onExit().get();
            }
            assertThatThrownBy(nodes::tierCounters).isInstanceOf(IOException.class).hasMessageContaining("exited");
        }
        assertThat(namespaces()).isEqualTo(before);
    }

    /** The processes running in namespace {@code name} ({@code ip netns pids}). */
    private static List<ProcessHandle> pidsIn(String name) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "netns", "pids", name).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor();
        return out.isEmpty() ? List.of() : java.util.Arrays.stream(out.split("\\s+"))
                .map(pid -> ProcessHandle.of(Long.parseLong(pid))).flatMap(java.util.Optional::stream).toList();
    }

    private static List<String> namespaces() throws IOException {
        Path names = Path.of("/var/run/netns");
        if (!Files.isDirectory(names)) {
            return List.of();
        }
        try (var s = Files.list(names)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("edgelab-" + ProcessHandle.current().pid() + "-"))
                    .sorted().toList();
        }
    }

    /** Adds every TTLB interval worker {@code r} logged, read back from its {@code .hlog}, to {@code into}. */
    private static void addIntervals(LoadResult r, Path hlog, Histogram into) throws IOException {
        r.writeHlog(hlog, LatencyLog.Kind.TTLB);
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                into.add((Histogram) interval);
            }
        }
    }
}
