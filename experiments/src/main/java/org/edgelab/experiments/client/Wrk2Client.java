package org.edgelab.experiments.client;

/**
 * The {@code wrk2} client: wrk2 (github.com/giltene/wrk2; not a Debian package) as a child process at the
 * descriptor's fixed rate ({@code -R}), sending the cell's requests from a plan through EdgeLab's Lua
 * script. Its latency is wrk2's: from each request's intended start to its last byte, recorded after its
 * calibration (the first 10 s, plus 5 ms per connection of a thread); it verifies nothing and cannot tell
 * first bytes apart. Where it is not installed, its cells are skipped with a note. Stateless and thread-safe.
 */
public final class Wrk2Client extends WrkFamilyClient {

    /** The plugin, as ServiceLoader makes it. */
    public Wrk2Client() {
        super(new WrkTool("wrk2", true,
                "build github.com/giltene/wrk2 and put its wrk on the PATH as wrk2"));
    }

    @Override
    public String description() {
        return "wrk2 at load.rate (-R), as a child process (settings: binary, x_cache; build github.com/giltene/wrk2)";
    }

    @Override
    public String method() {
        return "wrk2: open loop at load.rate (-R); ttlb from wrk2's corrected latency (intended start to last byte,"
                + " microseconds, after its calibration of the first 10 s), the histogram rebuilt from wrk2's values at "
                + WrkReport.LEVELS.size() + " percentiles; no ttfb, no byte verification (goodput empty); hit ratio and"
                + " 4xx/5xx only with x_cache, otherwise errors_status counts both; cpu_s_loadgen is wrk2's whole process";
    }
}
