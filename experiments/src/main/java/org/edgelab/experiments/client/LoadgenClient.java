package org.edgelab.experiments.client;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.link.LinkReport;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;
import org.edgelab.loadgen.LoadRunner;
import org.edgelab.loadgen.RateSchedule;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.LatencyLog;
import org.edgelab.plugin.PluginSettings;

/**
 * The {@code loadgen} client, the default: EdgeLab's load generator in the runner's JVM. It sends every
 * workload, closed loop or at a rate schedule, through emulated links, and verifies every body byte of
 * synthetic objects; it says everything the results have a column for. Stateless and thread-safe.
 */
public final class LoadgenClient implements LoadClient {

    @Override
    public String name() {
        return LoadClients.DEFAULT;
    }

    @Override
    public String description() {
        return "EdgeLab's load generator in the runner's JVM: TTFB and TTLB from each request's intended start,"
                + " every byte verified, hit ratio from X-Cache (the default)";
    }

    @Override
    public void validate(ClientLoad load, PluginSettings settings) {
        settings.requireOnly("load client 'loadgen'", settings());
    }

    @Override
    public String method() {
        return "loadgen: TTFB/TTLB HdrHistograms in nanoseconds from each request's intended start (the write in a closed"
                + " loop), bodies verified against the origin's content function, hit ratio from X-Cache, cpu_s_loadgen"
                + " its event-loop threads";
    }

    @Override
    public ClientResult run(ClientRun run) throws InterruptedException {
        return new Result(LoadRunner.run(config(run).build()));
    }

    /**
     * {@code run} as loadgen's configuration, for a caller that adds to it (a stop signal, its own interval
     * listener) before running it with {@link LoadRunner}.
     */
    public static LoadConfig.Builder config(ClientRun run) {
        return LoadConfig.builder().url(run.uri()).connections(run.connections()).threads(run.threads())
                .duration(run.duration()).requests(run.requests()).timeout(run.timeout())
                .rate(run.rate() == null ? null : RateSchedule.parse(run.rate(), run.duration()))
                .workload(run.workload()).verify(run.verify()).link(run.link()).seed(run.seed())
                .onInterval(run.onInterval());
    }


    /** A {@link LoadResult} as the runner reads it. Immutable. */
    private record Result(LoadResult r) implements ClientResult {

        @Override
        public long requests() {
            return r.counters().completed();
        }

        @Override
        public double seconds() {
            return r.elapsedSeconds();
        }

        @Override
        public long bytes() {
            return r.counters().bytesRead();
        }

        @Override
        public double requestsPerSecond() {
            return r.requestsPerSecond();
        }

        @Override
        public double throughputBytesPerSecond() {
            return r.throughputBytesPerSecond();
        }

        @Override
        public double goodputBytesPerSecond() {
            return r.goodputBytesPerSecond();
        }

        @Override
        public Histogram ttlb() {
            return r.ttlb();
        }

        @Override
        public Histogram ttfb() {
            return r.ttfb();
        }

        @Override
        public Histogram loopDelay() {
            return r.loopDelay();
        }

        @Override
        public Histogram ttfbHit() {
            return r.ttfbHit();
        }

        @Override
        public Histogram ttfbMiss() {
            return r.ttfbMiss();
        }

        @Override
        public Histogram ttlbHit() {
            return r.ttlbHit();
        }

        @Override
        public Histogram ttlbMiss() {
            return r.ttlbMiss();
        }

        @Override
        public Map<String, Long> errors() {
            Map<String, Long> errors = new LinkedHashMap<>();
            for (ErrorClass c : ErrorClass.values()) {
                errors.put("errors_" + c.label(), r.errors(c));
            }
            return errors;
        }

        @Override
        public double hitRatio() {
            return r.hitRatio();
        }

        @Override
        public double byteHitRatio() {
            return r.byteHitRatio();
        }

        @Override
        public double setHitRatio() {
            return r.setHitRatio();
        }

        @Override
        public double clientCpuSeconds() {
            return r.loopCpuSeconds();
        }

        @Override
        public boolean clientInRunnerJvm() {
            return true;
        }

        @Override
        public double runnerJvmCpuSeconds() {
            return r.processCpuSeconds();
        }

        @Override
        public Optional<LinkReport> link() {
            return Optional.of(r.link());
        }

        @Override
        public boolean writeHlog(Path file, LatencyLog.Kind kind) throws IOException {
            r.writeHlog(file, kind);
            return true;
        }
    }
}
