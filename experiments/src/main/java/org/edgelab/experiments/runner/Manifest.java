package org.edgelab.experiments.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.matrix.Cell;

/**
 * The run's {@code manifest.json}: what ran, where (JVM, OS, cores, git commit), with which descriptor
 * and seed, when, how each figure was obtained ({@code methods}), and which cells are done; rewritten atomically (temp file and rename) after every
 * cell so it always matches results.csv. Not thread-safe: owned by one runner.
 */
public final class Manifest {

    /** How the matrix runner's CPU figures are obtained. */
    public static final String CPU_NOTE = "cpu_s_server is the CPU time of the processes under test as their target"
            + " measures them (cpu_method names how); where the target cannot tell them apart (embedded: loadgen, origin"
            + " and cache share one JVM, cpu_method embedded-shared-jvm) it is the JVM's process CPU time minus loadgen's"
            + " event-loop threads (minus nothing for a client in a process of its own, such as wrk), so it includes the"
            + " origin, GC and JIT; cpu_s_loadgen is the load client's own CPU (loadgen's event-loop threads, or wrk's"
            + " whole process), cpu_s_jvm_total the runner's whole JVM";

    /** How the server's memory is bounded (each cell's {@code memory.bound} says what was done for it). */
    public static final String MEMORY_NOTE = "the process target and the peers run the server under test in a memory cgroup made by"
            + " the runner per cell (cgroup v2 memory.max, or v1 memory.limit_in_bytes where only v1 is mounted), limited to"
            + " target_settings.memory or else hardware.memory, unlimited when neither is stated; the server's command starts"
            + " through /bin/sh, which writes its pid into cgroup.procs and then execs it, so every process of the server"
            + " (varnishd's child, nginx's workers, the JVM) runs in it from its start and the page cache it fills is charged"
            + " to it; a limit that cannot be enforced fails the cell unless target_settings.memory_fallback is unbounded;"
            + " memory_bound and memory_limit_bytes say what applied, cells[].memory.bound how; the cgroup is removed after"
            + " the cell (leftovers of a runner that died are swept at the next cgroup's creation)";

    /** How the I/O and memory figures are read. */
    public static final String IO_NOTE = "device_read_bytes, device_write_bytes (block-layer bytes; page-cache hits excluded,"
            + " writes counted when a page is dirtied, less cancelled_write_bytes), read_syscalls, write_syscalls: /proc/<pid>/io"
            + " of the processes in the server's cgroup (else its process tree), over the measured run; read_amplification ="
            + " device_read_bytes / bytes the client received; write_amplification = device_write_bytes /"
            + " server_bytes_from_origin (bytes fetched to be stored), below 1 when the store deletes objects before the kernel"
            + " writes them back (vm.dirty_expire_centisecs): their cancelled pages never reach the device; rss_peak_bytes: VmHWM of /proc/<pid>/status summed over"
            + " those processes, cgroup_memory_peak_bytes: the cgroup's memory.max_usage_in_bytes (v1) or memory.peak (v2), both"
            + " since the server started, read at the end of the measured run; diskstats_read_bytes, diskstats_write_bytes:"
            + " /proc/diskstats of the device holding the store, whole device and every process on the machine, over the measured"
            + " run; an empty column's reason is in cells[].memory.empty_columns";

    /** What is done about the page cache before a measured run. */
    public static final String PAGE_CACHE_NOTE = "no cache is dropped: each cell's store is new, written by the server inside its"
            + " cgroup during the warm-up, so its page cache is charged to that cgroup and bounded by the limit, as on a node"
            + " whose store is many times its memory; page_cache_start_bytes is the cgroup's page cache (memory.stat total_cache"
            + " in v1, file in v2) when the measured run starts";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    private final Descriptor descriptor;
    private final List<Cell> cells;
    private final Map<String, String> methods;
    private final Map<String, Object> content = new LinkedHashMap<>();
    private final Map<String, String> cellStatus = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> cellDetails = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> cellLinks = new LinkedHashMap<>();

    /** A manifest at {@code file} for these cells; {@code methods} says how each kind of figure is obtained. */
    public Manifest(Path file, Descriptor descriptor, List<Cell> cells, Map<String, String> methods) {
        this.file = file;
        this.descriptor = descriptor;
        this.cells = List.copyOf(cells);
        this.methods = new LinkedHashMap<>(methods);
    }

    /** Returns the experiment named in an existing manifest. */
    public static String experimentOf(Path manifest) throws IOException {
        JsonNode node = JSON.readTree(manifest.toFile()).get("experiment");
        return node == null ? "" : node.asText();
    }

    /** Writes the manifest with status {@code partial}, the given cells marked done. */
    public void start(Set<String> finished, boolean resumed) throws IOException {
        Map<String, Object> previous = null;
        if (resumed && Files.exists(file)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> read = JSON.readValue(file.toFile(), Map.class);
            previous = read;
        }
        content.put("experiment", descriptor.name());
        content.put("kind", descriptor.kind());
        content.put("description", descriptor.description());
        content.put("descriptor", "descriptor.yaml");
        content.put("descriptor_source", descriptor.source());
        content.put("quick", descriptor.quick());
        content.put("seed", descriptor.seed());
        content.put("repetitions", descriptor.repetitions());
        content.put("target", descriptor.target());
        content.put("git_commit", gitCommit());
        Map<String, Object> jvm = new LinkedHashMap<>();
        jvm.put("version", System.getProperty("java.version"));
        jvm.put("vendor", System.getProperty("java.vendor"));
        jvm.put("vm", System.getProperty("java.vm.name"));
        jvm.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        content.put("jvm", jvm);
        content.put("cores", Runtime.getRuntime().availableProcessors());
        content.put("os", Map.of("name", System.getProperty("os.name"), "version", System.getProperty("os.version"),
                "arch", System.getProperty("os.arch")));
        content.put("hardware_profile", hardware(descriptor.hardware()));
        content.put("started", previous != null && previous.get("started") != null ? previous.get("started") : Instant.now().toString());
        if (previous != null) {
            List<Object> resumes = new ArrayList<>();
            if (previous.get("resumed") instanceof List<?> list) {
                resumes.addAll(list);
            }
            resumes.add(Instant.now().toString());
            content.put("resumed", resumes);
        }
        content.put("ended", null);
        content.put("status", "partial");
        content.put("notes", descriptor.notes());
        content.put("methods", methods);
        for (Cell cell : cells) {
            cellStatus.put(cell.id(), finished.contains(cell.id()) ? "done" : "pending");
        }
        write();
    }

    /** Records {@code value} under {@code key} in the cell's entry (e.g. how its memory was bounded); written with the next rewrite. */
    public void cellDetail(String cellId, String key, Object value) {
        cellDetails.computeIfAbsent(cellId, k -> new LinkedHashMap<>()).put(key, value);
    }

    /** Records how a cell's link was emulated and what it measured (written with the cell when it is done). */
    public void cellLink(String cellId, Map<String, Object> link) {
        cellLinks.put(cellId, new LinkedHashMap<>(link));
    }

    /** Marks a cell done and rewrites the manifest. */
    public void cellDone(String cellId) throws IOException {
        cellStatus.put(cellId, "done");
        write();
    }

    /** Records the end time and final status ({@code complete} or {@code partial}). */
    public void finish(String status) throws IOException {
        content.put("ended", Instant.now().toString());
        content.put("status", status);
        write();
    }

    private void write() throws IOException {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Cell cell : cells) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("index", cell.index());
            c.put("id", cell.id());
            c.put("dimensions", cell.dimensions());
            c.put("status", cellStatus.get(cell.id()));
            c.putAll(cellDetails.getOrDefault(cell.id(), Map.of()));
            if (cellLinks.containsKey(cell.id())) {
                c.put("link", cellLinks.get(cell.id()));
            }
            list.add(c);
        }
        content.put("cells", list);
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        JSON.writeValue(temp.toFile(), content);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Map<String, Object> hardware(Descriptor.Hardware h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", h.name());
        m.put("description", h.description());
        m.put("cores", h.cores());
        m.put("memory_bytes", h.memoryBytes());
        m.put("disks", h.disks());
        m.put("link", h.link().name());
        Map<String, Object> power = new LinkedHashMap<>();
        power.put("model", h.power().model());
        power.putAll(h.power().settings());
        m.put("power", power);
        return m;
    }

    private static String gitCommit() {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes()).strip();
            if (git.waitFor(5, TimeUnit.SECONDS) && git.exitValue() == 0 && out.matches("[0-9a-f]{40}")) {
                return out;
            }
            return null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
