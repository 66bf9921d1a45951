package org.edgelab.experiments.runner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.edgelab.experiments.process.DiskStats;
import org.edgelab.experiments.process.cgroup.Cgroup;
import org.edgelab.experiments.process.cgroup.CgroupMemory;
import org.edgelab.experiments.process.cgroup.Cgroups;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerMemory;
import org.edgelab.experiments.target.Target;
import org.edgelab.measure.ProcessIo;
import org.edgelab.units.ByteSize;

/**
 * The memory bound and the resource figures of one cell's server: the memory cgroup the runner makes for a target
 * that {@link Target#runsServerInCgroup() runs its server in one} (limited to the build's or the hardware's memory,
 * unlimited when neither states any, so that its peak and page cache are still read), and samples of the server's
 * device I/O, peak RSS, cgroup peak, page cache and the store's device. A limit the machine cannot enforce fails the
 * cell unless the build allows {@code memory_fallback: unbounded}. {@link #close()} removes the cgroup. Not
 * thread-safe: owned by the runner's thread; sampling reads {@code /proc} and cgroupfs and may block briefly.
 */
public final class CellResources implements AutoCloseable {

    /**
     * How memory was bounded: {@code cgroup v1}, {@code cgroup v2}, {@code none} (no limit stated; also in an unlimited
     * cgroup) or {@code unbounded} (a limit was stated but could not be enforced, and the build allowed that).
     */
    private final String bound;
    private final Cgroup cgroup;
    private final OptionalLong limit;
    private final Map<String, Object> manifest = new LinkedHashMap<>();
    private final Map<String, String> absent = new LinkedHashMap<>();
    private final Path storeDir;
    private String device;

    private CellResources(String bound, Cgroup cgroup, OptionalLong limit, Path storeDir) {
        this.bound = bound;
        this.cgroup = cgroup;
        this.limit = limit;
        this.storeDir = storeDir;
    }

    /**
     * The bound of {@code build}'s server on {@code target}: a cgroup made for it where the target runs its server in
     * one and the machine has cgroups, otherwise none and why.
     *
     * @throws IOException when a limit is stated, the machine cannot enforce it and the build allows no fallback
     */
    public static CellResources open(Target target, ServerBuild build, long hardwareMemory, String label, Path storeDir) throws IOException {
        return open(target, build, hardwareMemory, label, storeDir, Cgroups::create);
    }

    /** Makes a cgroup, or says why it cannot ({@link Cgroups#create} on this machine). */
    @FunctionalInterface
    interface CgroupMaker {
        Cgroup make(String label, OptionalLong limitBytes) throws IOException;
    }

    /** {@link #open(Target, ServerBuild, long, String, Path)} with cgroups from {@code maker}. */
    static CellResources open(Target target, ServerBuild build, long hardwareMemory, String label, Path storeDir, CgroupMaker maker)
            throws IOException {
        OptionalLong limit = target.runsServerInCgroup() ? ServerMemory.limit(build, hardwareMemory) : OptionalLong.empty();
        String stated = limit.isPresent() ? ByteSize.format(limit.getAsLong()) + " (" + limit.getAsLong() + " bytes)" : null;
        if (!target.runsServerInCgroup()) {
            CellResources none = new CellResources("none", null, OptionalLong.empty(), storeDir);
            String why = "the " + target.name() + " target does not run its server in a cgroup of the runner's"
                    + (target.name().equals("container") ? " (it applies its own container limit)" : "");
            none.manifest.put("bound", "none: " + why);
            none.absentCgroup(why);
            return none;
        }
        String unavailable;
        try {
            Cgroup cgroup = maker.make(label, limit);
            CellResources made = new CellResources(cgroup.limitBytes().isPresent() ? cgroup.version() : "none", cgroup,
                    cgroup.limitBytes(), storeDir);
            made.manifest.put("bound", cgroup.limitBytes().isPresent()
                    ? cgroup.version() + " " + cgroup.limitFile() + " = " + cgroup.limitBytes().getAsLong() + " bytes ("
                            + ByteSize.format(limit.getAsLong()) + " asked); the server's processes joined it before they started, its page cache is charged to it"
                    : "none: no memory stated (hardware.memory, target_settings.memory); the server ran in an unlimited "
                            + cgroup.version() + " memory cgroup so that its peak and page cache are read");
            made.manifest.put("cgroup", cgroup.path().toString());
            return made;
        } catch (IOException e) {
            unavailable = e.getMessage();
        }
        if (limit.isPresent() && !ServerMemory.fallbackAllowed(build)) {
            throw new IOException("the memory limit of " + build.name() + " (" + stated + ") cannot be enforced on this machine: "
                    + unavailable + ". Run as root with a memory cgroup controller, or set target_settings memory_fallback: "
                    + ServerMemory.UNBOUNDED + " to run it unbounded");
        }
        CellResources none = new CellResources(limit.isPresent() ? "unbounded" : "none", null, OptionalLong.empty(), storeDir);
        none.manifest.put("bound", limit.isPresent()
                ? "unbounded (memory_fallback: unbounded): the limit of " + stated + " cannot be enforced here: " + unavailable
                : "none: no memory stated, and no cgroup to measure in: " + unavailable);
        none.absentCgroup("no cgroup: " + unavailable);
        return none;
    }

    private void absentCgroup(String why) {
        absent.put("cgroup_memory_peak_bytes", why);
        absent.put("page_cache_start_bytes", why);
    }

    /** The cgroup for the target context, null when there is none. */
    public Cgroup cgroup() {
        return cgroup;
    }

    /** What the manifest says about this cell's memory and I/O figures: how memory was bounded and why a figure is empty. */
    public Map<String, Object> manifestEntry() {
        Map<String, Object> entry = new LinkedHashMap<>(manifest);
        if (!absent.isEmpty()) {
            entry.put("empty_columns", new LinkedHashMap<>(absent));
        }
        return entry;
    }

    /** Everything read at one moment; a figure that could not be read is null (its reason recorded for the manifest). */
    public record Sample(ProcessIo.Sample io, CgroupMemory memory, DiskStats.Sample disk) {
    }

    /** Reads the server's figures now. */
    public Sample sample(RunningTarget running) {
        ProcessIo.Sample io = null;
        CgroupMemory memory = null;
        DiskStats.Sample disk = null;
        try {
            List<Long> pids = cgroup != null ? cgroup.pids() : running.serverPid().map(p -> List.copyOf(ProcessIo.tree(p))).orElse(null);
            if (pids == null) {
                absentIo("the server shares the runner's process (" + running.getClass().getSimpleName() + "): its I/O cannot be told apart");
            } else if (!ProcessIo.available()) {
                absentIo("/proc/<pid>/io is not readable here (a kernel without task I/O accounting?)");
            } else {
                io = ProcessIo.read(pids);
            }
        } catch (IOException | RuntimeException e) {
            absentIo("cannot read the server's /proc/<pid>/io: " + e.getMessage());
        }
        if (cgroup != null) {
            try {
                memory = cgroup.memory();
            } catch (IOException | RuntimeException e) {
                absentCgroup("cannot read " + cgroup.path() + ": " + e.getMessage());
            }
        }
        try {
            if (device == null) {
                device = DiskStats.deviceOf(storeDir);
            }
            disk = DiskStats.read(device).orElse(null);
        } catch (IOException | RuntimeException e) {
            absent.put("diskstats_read_bytes", e.getMessage());
            absent.put("diskstats_write_bytes", e.getMessage());
        }
        return new Sample(io, memory, disk);
    }

    private void absentIo(String why) {
        for (String column : List.of("device_read_bytes", "device_write_bytes", "read_syscalls", "write_syscalls", "rss_peak_bytes",
                "read_amplification", "write_amplification")) {
            absent.put(column, why);
        }
    }

    /**
     * The columns of one measured run from samples taken before and after it; {@code bytesServed} is what the client
     * received, {@code bytesFromOrigin} what the server fetched (and stored), -1 when unknown.
     */
    public Map<String, String> columns(Sample before, Sample after, long bytesServed, long bytesFromOrigin) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("memory_bound", bound);
        v.put("memory_limit_bytes", limit.isPresent() ? String.valueOf(limit.getAsLong()) : "");
        boolean io = before.io() != null && after.io() != null;
        ProcessIo.Sample d = io ? after.io().minus(before.io()) : null;
        v.put("device_read_bytes", io ? String.valueOf(d.readBytes()) : "");
        v.put("device_write_bytes", io ? String.valueOf(d.writeBytes()) : "");
        v.put("read_syscalls", io ? String.valueOf(d.readSyscalls()) : "");
        v.put("write_syscalls", io ? String.valueOf(d.writeSyscalls()) : "");
        v.put("read_amplification", io && bytesServed > 0 ? ExperimentRunner.num((double) d.readBytes() / bytesServed) : "");
        if (io && bytesFromOrigin <= 0) {
            absent.put("write_amplification", bytesFromOrigin == 0 ? "nothing was fetched from the origin in a measured run"
                    : "the server's counters give no bytes fetched from the origin");
        }
        v.put("write_amplification", io && bytesFromOrigin > 0 ? ExperimentRunner.num((double) d.writeBytes() / bytesFromOrigin) : "");
        v.put("rss_peak_bytes", after.io() != null ? String.valueOf(after.io().rssPeakBytes()) : "");
        v.put("cgroup_memory_peak_bytes", after.memory() != null && after.memory().peakBytes() >= 0
                ? String.valueOf(after.memory().peakBytes()) : "");
        v.put("page_cache_start_bytes", before.memory() != null && before.memory().pageCacheBytes() >= 0
                ? String.valueOf(before.memory().pageCacheBytes()) : "");
        boolean disk = before.disk() != null && after.disk() != null;
        v.put("diskstats_read_bytes", disk ? String.valueOf(after.disk().readBytes() - before.disk().readBytes()) : "");
        v.put("diskstats_write_bytes", disk ? String.valueOf(after.disk().writtenBytes() - before.disk().writtenBytes()) : "");
        if (disk) {
            manifest.put("diskstats_device", after.disk().device());
        }
        return v;
    }

    /** Removes the cgroup (after the target stopped its processes; what is left in it is killed). */
    @Override
    public void close() {
        if (cgroup != null) {
            cgroup.close();
        }
    }
}
