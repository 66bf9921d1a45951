package org.edgelab.experiments.client;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerCounters;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.experiments.target.Targets;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.plugin.PluginSettings;

/** An origin and a memory-engine cache on loopback (the embedded target), with a warmed set of 10 objects of 10 KB. */
final class EmbeddedCache implements AutoCloseable {

    private final RunningTarget target;
    private ServerCounters start;

    private EmbeddedCache(RunningTarget target) {
        this.target = target;
    }

    static EmbeddedCache start() throws IOException {
        Path tmp = java.nio.file.Files.createTempDirectory("edgelab-wrk-test-");
        return new EmbeddedCache(Targets.get("embedded").start(new ServerBuild("memory", "memory", Map.of("capacity", "16MB")),
                new TargetContext(tmp.resolve("store"), tmp.resolve("work"), 1, 0, Duration.ofSeconds(30))));
    }

    /** A 1-s run of 10 set objects of 10 KB aimed at {@code targetHitRatio}, after a loadgen warm-up of the set. */
    ClientRun run(Path dir, double targetHitRatio, Map<String, String> settings) throws InterruptedException, IOException {
        ObjectWorkload workload = ObjectWorkload.builder().objects(10).sizes("10000").targetHitRatio(targetHitRatio)
                .namespace("t-").build();
        LoadRunner.run(LoadConfig.builder().url(target.clientUri()).connections(2).threads(1).requests(10)
                .duration(Duration.ofSeconds(30)).workload(workload.warmUp()).build());
        start = target.counters();
        return new ClientRun(target.clientUri(), workload, 4, 2, Duration.ofSeconds(1), 0, Duration.ofSeconds(5), null,
                LinkEmulation.NONE, true, 7, dir.resolve("work"), "r1", PluginSettings.of(settings), IntervalListener.NONE);
    }

    long requests() throws IOException {
        return target.counters().requests() - start.requests();
    }

    long misses() throws IOException {
        return target.counters().misses() - start.misses();
    }

    @Override
    public void close() {
        target.close();
    }
}
