package org.edgelab.peers.varnish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.edgelab.experiments.target.ServerCounters;

/**
 * Reads a running {@code varnishd}'s counters with {@code varnishstat -j} and maps them to EdgeLab's:
 * requests {@code MAIN.client_req}, hits {@code MAIN.cache_hit}, misses {@code MAIN.cache_miss}, bytes to
 * clients {@code MAIN.s_resp_bodybytes}, bytes from the origin the sum of {@code VBE.*.beresp_bodybytes}.
 * Thread-safe.
 */
final class VarnishStats {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path varnishstat;
    private final Path instance;

    VarnishStats(Path varnishstat, Path instance) {
        this.varnishstat = varnishstat;
        this.instance = instance;
    }

    /** The counters now. */
    ServerCounters read() throws IOException {
        Process process = new ProcessBuilder(varnishstat.toString(), "-n", instance.toString(), "-j")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        JsonNode root;
        try (InputStream in = process.getInputStream()) {
            root = JSON.readTree(in);
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IOException("varnishstat -n " + instance + " did not finish within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading varnishstat", e);
        } finally {
            process.destroy();
        }
        if (process.exitValue() != 0 || root == null) {
            throw new IOException("varnishstat -n " + instance + " -j exited with status " + process.exitValue());
        }
        return counters(root);
    }

    /** Maps {@code varnishstat -j} output (format 1, counters under {@code counters}, or the older flat form). */
    static ServerCounters counters(JsonNode root) throws IOException {
        JsonNode counters = root.has("counters") ? root.get("counters") : root;
        long fromOrigin = 0;
        boolean anyBackend = false;
        for (Iterator<Map.Entry<String, JsonNode>> it = counters.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().startsWith("VBE.") && e.getKey().endsWith(".beresp_bodybytes")) {
                fromOrigin += e.getValue().path("value").asLong();
                anyBackend = true;
            }
        }
        for (String name : List.of("MAIN.client_req", "MAIN.cache_hit", "MAIN.cache_miss", "MAIN.s_resp_bodybytes")) {
            if (!counters.has(name)) {
                throw new IOException("varnishstat has no counter " + name + " (an unexpected Varnish version?)");
            }
        }
        return new ServerCounters(value(counters, "MAIN.client_req"), value(counters, "MAIN.cache_hit"),
                value(counters, "MAIN.cache_miss"), value(counters, "MAIN.s_resp_bodybytes"), anyBackend ? fromOrigin : -1);
    }

    private static long value(JsonNode counters, String name) {
        return counters.get(name).path("value").asLong();
    }
}
