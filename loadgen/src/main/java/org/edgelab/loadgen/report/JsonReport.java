package org.edgelab.loadgen.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.edgelab.loadgen.LoadConfig;
import org.edgelab.loadgen.LoadResult;

/**
 * Writes a run as JSON: {@code figures} (the CSV columns), {@code config}, {@code warm_up} (if any) and
 * {@code environment} (JVM, OS, cores), so a result file says what produced it. Stateless and thread-safe.
 */
public final class JsonReport {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {
    }

    /** Writes {@code result} to {@code file}, replacing it. */
    public static void write(LoadResult result, Path file) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("tool", "edgelab-loadgen");
        root.put("figures", ResultFigures.of(result));
        root.put("config", config(result.config()));
        result.warmUpCounters().ifPresent(w -> {
            Map<String, Object> warm = new LinkedHashMap<>();
            warm.put("requests", w.completed());
            warm.put("errors", w.errorsByClass());
            root.put("warm_up", warm);
        });
        root.put("environment", environment());
        MAPPER.writeValue(file.toFile(), root);
    }

    static Map<String, Object> config(LoadConfig c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("url", c.url().toString());
        m.put("connections", c.connections());
        m.put("threads", c.threads());
        m.put("duration_ms", c.duration().toMillis());
        m.put("requests", c.requests());
        m.put("timeout_ms", c.timeout().toMillis());
        m.put("rate", c.schedule() == null ? null : c.schedule().describe());
        m.put("workload", c.workload().describe());
        m.put("link", c.link().describe());
        m.put("verify", c.verify());
        m.put("seed", c.seed());
        m.put("late_threshold_ms", c.lateThreshold().toNanos() / 1e6);
        return m;
    }

    /** JVM, OS and processor count of this process. */
    public static Map<String, Object> environment() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("java_version", System.getProperty("java.version"));
        m.put("java_vm", System.getProperty("java.vm.name"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        m.put("available_processors", Runtime.getRuntime().availableProcessors());
        m.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        return m;
    }
}
