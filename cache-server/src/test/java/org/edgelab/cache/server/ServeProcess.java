package org.edgelab.cache.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.edgelab.cache.cli.ServeCommand;
import org.edgelab.storage.contract.CrashHarness;

/**
 * The cache server in a child JVM ({@link ServeCommand#main}, as the process target runs it), so a
 * test can SIGKILL it and start it again on the same store. Its output goes to files in a work
 * directory. Not thread-safe; {@link #close} kills it if it still runs.
 */
final class ServeProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("edgelab cache on http://127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern ADMIN = Pattern.compile("admin on http://127\\.0\\.0\\.1:(\\d+)/stats");
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private final Process process;
    private final Path out;
    private final Path err;
    final int port;
    final int adminPort;

    private ServeProcess(Process process, Path out, Path err, int port, int adminPort) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.port = port;
        this.adminPort = adminPort;
    }

    /** Starts {@code serve --origin ORIGIN --engine ENGINE -o ...} on free loopback ports; returns once it listens. */
    static ServeProcess start(URI origin, String engine, List<String> engineOptions, Path workDir, String name)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path out = workDir.resolve(name + ".out");
        Path err = workDir.resolve(name + ".err");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(CrashHarness.inheritedJvmFlags());
        command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-cp", CrashHarness.classPath(),
                ServeCommand.class.getName(), "--port", "0", "--admin-port", "0", "--io-threads", "2",
                "--origin", origin.toString(), "--engine", engine));
        for (String o : engineOptions) {
            command.add("-o");
            command.add(o);
        }
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            long deadline = System.nanoTime() + STARTUP.toNanos();
            while (System.nanoTime() < deadline) {
                String text = Files.readString(out, StandardCharsets.UTF_8);
                Matcher m = LISTENING.matcher(text);
                Matcher a = ADMIN.matcher(text);
                if (m.find() && a.find()) {
                    return new ServeProcess(p, out, err, Integer.parseInt(m.group(1)), Integer.parseInt(a.group(1)));
                }
                if (!p.isAlive()) {
                    throw new IllegalStateException("serve exited with code " + p.exitValue() + ": "
                            + Files.readString(err, StandardCharsets.UTF_8));
                }
                Thread.sleep(50);
            }
            throw new IllegalStateException("serve did not listen within " + STARTUP + ": "
                    + Files.readString(err, StandardCharsets.UTF_8));
        } catch (IOException | InterruptedException | RuntimeException e) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * The {@code -o} options that put a disk engine's store (raw-log, raw-files, lmdb, or tiered
     * over raw-log with a 16 MiB memory tier) of {@code capacity} in directory {@code dir}.
     */
    static List<String> diskStoreOptions(String engine, Path dir, String capacity) {
        return switch (engine) {
            case "raw-log" -> List.of("disks=" + dir.resolve("disk0"), "capacity=" + capacity);
            case "raw-files" -> List.of("dir=" + dir.resolve("files"), "capacity=" + capacity);
            case "lmdb" -> List.of("path=" + dir.resolve("lmdb"), "capacity=" + capacity);
            case "tiered" -> List.of("disk-engine=raw-log", "disk.disks=" + dir.resolve("disk0"),
                    "disk.capacity=" + capacity, "memory-capacity=16MiB");
            default -> throw new IllegalArgumentException("not a disk engine: " + engine);
        };
    }

    /** Stops the server with SIGTERM (its shutdown hook closes the store) and waits for it to exit. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("serve did not exit within 60 s of SIGTERM");
        }
    }

    /** Kills the server with SIGKILL (nothing is flushed or closed) and waits for it to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("serve did not die within 30 s of SIGKILL");
        }
    }

    /** Returns the server's /stats as JSON. */
    JsonNode stats() throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + adminPort + "/stats")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new ObjectMapper().readTree(r.body());
    }

    /** Returns the server's /metrics text. */
    String metrics() throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + adminPort + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Returns the end of the server's error output, for a failure message. */
    String errors() throws IOException {
        String text = Files.readString(err, StandardCharsets.UTF_8);
        return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
