package org.edgelab.experiments.client;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.edgelab.experiments.plugin.PluginSettings;
import org.edgelab.experiments.plugin.Setting;

/**
 * The {@code wrk2} client: wrk2 (github.com/giltene/wrk2; not a Debian package) as a child process at the
 * descriptor's fixed rate ({@code -R}), sending the cell's requests from a plan through EdgeLab's Lua
 * script. Its latency is wrk2's: from each request's intended start to its last byte, recorded after its
 * calibration (the first 10 s, plus 5 ms per connection of a thread); it verifies nothing and cannot tell
 * first bytes apart. Where it is not installed, its cells are skipped with a note. Stateless and thread-safe.
 */
public final class Wrk2Client implements LoadClient {

    private static final WrkTool TOOL = new WrkTool("wrk2", true,
            "build github.com/giltene/wrk2 and put its wrk on the PATH as wrk2");

    @Override
    public String name() {
        return TOOL.name();
    }

    @Override
    public String description() {
        return "wrk2 at load.rate (-R), as a child process (settings: binary, x_cache; build github.com/giltene/wrk2)";
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
        return "wrk2: open loop at load.rate (-R); ttlb from wrk2's corrected latency (intended start to last byte,"
                + " microseconds, after its calibration of the first 10 s), the histogram rebuilt from wrk2's values at "
                + WrkReport.LEVELS.size() + " percentiles; no ttfb, no byte verification (goodput empty); hit ratio and"
                + " 4xx/5xx only with x_cache, otherwise errors_status counts both; cpu_s_loadgen is wrk2's whole process";
    }

    @Override
    public ClientResult run(ClientRun run) throws IOException, InterruptedException {
        return TOOL.run(run);
    }
}
