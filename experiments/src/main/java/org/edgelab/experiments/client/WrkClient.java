package org.edgelab.experiments.client;

/**
 * The {@code wrk} client: wrk (Debian package {@code wrk}) as a child process, closed loop, sending the
 * cell's requests from a plan through EdgeLab's Lua script. Its latency is wrk's: from the write of a
 * request to its last byte, with wrk's own correction for coordinated omission, at microsecond resolution;
 * it verifies nothing and cannot tell first bytes apart, so goodput and TTFB stay empty. Stateless and
 * thread-safe.
 */
public final class WrkClient extends WrkFamilyClient {

    /** The plugin, as ServiceLoader makes it. */
    public WrkClient() {
        super(new WrkTool("wrk", false, "apt-get install wrk"));
    }

    @Override
    public String description() {
        return "wrk, closed loop, as a child process (settings: binary, x_cache; apt-get install wrk)";
    }

    @Override
    public String method() {
        return "wrk: closed loop; ttlb from wrk's latency (write to last byte, microseconds, wrk's coordinated-omission"
                + " correction), the histogram rebuilt from wrk's values at " + WrkReport.LEVELS.size() + " percentiles;"
                + " no ttfb, no byte verification (goodput empty); hit ratio and 4xx/5xx only with x_cache, otherwise"
                + " errors_status counts both; cpu_s_loadgen is wrk's whole process (/proc/self/stat read in done())";
    }
}
