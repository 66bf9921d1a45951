package org.edgelab.experiments.client;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.edgelab.experiments.plugin.PluginSettings;
import org.edgelab.experiments.plugin.Setting;

/**
 * The {@code wrk} client: wrk (Debian package {@code wrk}) as a child process, closed loop, sending the
 * cell's requests from a plan through EdgeLab's Lua script. Its latency is wrk's: from the write of a
 * request to its last byte, with wrk's own correction for coordinated omission, at microsecond resolution;
 * it verifies nothing and cannot tell first bytes apart, so goodput and TTFB stay empty. Stateless and
 * thread-safe.
 */
public final class WrkClient implements LoadClient {

    private static final WrkTool TOOL = new WrkTool("wrk", false, "apt-get install wrk");

    @Override
    public String name() {
        return TOOL.name();
    }

    @Override
    public String description() {
        return "wrk, closed loop, as a child process (settings: binary, x_cache; apt-get install wrk)";
    }

    @Override
    public List<Setting> settings() {
        return TOOL.settings();
    }

    @Override
    public void validate(ClientLoad load, PluginSettings settings) {
        TOOL.validate(load, settings);
    }

    @Override
    public Optional<String> unavailableReason(PluginSettings settings) {
        return TOOL.unavailableReason(settings);
    }

    @Override
    public String method() {
        return "wrk: closed loop; ttlb from wrk's latency (write to last byte, microseconds, wrk's coordinated-omission"
                + " correction), the histogram rebuilt from wrk's values at " + WrkReport.LEVELS.size() + " percentiles;"
                + " no ttfb, no byte verification (goodput empty); hit ratio and 4xx/5xx only with x_cache, otherwise"
                + " errors_status counts both; cpu_s_loadgen is wrk's whole process (/proc/self/stat read in done())";
    }

    @Override
    public ClientResult run(ClientRun run) throws IOException, InterruptedException {
        return TOOL.run(run);
    }
}
