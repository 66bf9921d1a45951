package org.edgelab.link.kernel;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.sun.jna.Native;

/**
 * The runner's handle on a {@link DelayLine} process: starts it (on the calling thread's namespace, which the child
 * inherits), waits for its device, asks it for counters, and stops it. Thread-safe; every call blocks for the
 * child's answer (at most a few seconds).
 */
final class DelayLineProcess implements AutoCloseable {
    private static final long READY_SECONDS = 30;

    private final Process process;
    private final OutputStream commands;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final BlockingQueue<String> stats = new LinkedBlockingQueue<>();
    private final Deque<String> lastLines = new ArrayDeque<>();

    private DelayLineProcess(Process process) {
        this.process = process;
        this.commands = process.getOutputStream();
        Thread reader = new Thread(this::readOutput, "delay-line-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a delay line on device {@code tun} in the calling thread's namespace and returns once the device is
     * attached; {@code reap} are the namespaces it deletes if its input ends before it is closed.
     */
    static DelayLineProcess start(String tun, long ringBytes, List<long[]> delays, List<String> reap) {
        List<String> command = new ArrayList<>();
        // The delay line is the wire: at a higher priority than the servers and loads it carries, so that a busy
        // machine delays their work rather than every packet's delay.
        if (Files.isExecutable(Path.of("/usr/bin/nice"))) {
            command.addAll(List.of("/usr/bin/nice", "-n", "-10"));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx48m", "-Xss512k", "-XX:+UseSerialGC", "-XX:-UsePerfData"));
        command.addAll(List.of("-cp", classPath(), DelayLine.class.getName(), "--tun", tun, "--ring-bytes", Long.toString(ringBytes)));
        for (long[] d : delays) {
            command.addAll(List.of("--delay", Long.toString(d[0]), Long.toString(d[1]), Long.toString(d[2])));
        }
        command.addAll(List.of("--reap", String.join(",", reap)));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new KernelLinkException("cannot start the delay line (" + command.get(0) + "): " + e.getMessage(), e);
        }
        DelayLineProcess line = new DelayLineProcess(p);
        try {
            if (!line.ready.await(READY_SECONDS, TimeUnit.SECONDS) || !p.isAlive()) {
                String output = line.output();
                line.close();
                throw new KernelLinkException("the delay line did not attach TUN device " + tun + " within " + READY_SECONDS
                        + " s" + (output.isEmpty() ? "" : ": " + output));
            }
        } catch (InterruptedException e) {
            line.close();
            Thread.currentThread().interrupt();
            throw new KernelLinkException("interrupted while starting the delay line", e);
        }
        return line;
    }

    /** The delay line's counters (packets and bytes in and out, drops) as named in its {@code stats} line. */
    Map<String, Long> stats() {
        try {
            synchronized (commands) {
                commands.write("stats\n".getBytes(StandardCharsets.US_ASCII));
                commands.flush();
            }
            String line = stats.poll(5, TimeUnit.SECONDS);
            if (line == null) {
                throw new KernelLinkException("the delay line did not answer 'stats': " + output());
            }
            Map<String, Long> values = new HashMap<>();
            for (String part : line.substring("stats".length()).trim().split(" ")) {
                String[] kv = part.split("=");
                values.put(kv[0], Long.parseLong(kv[1]));
            }
            return values;
        } catch (IOException e) {
            throw new KernelLinkException("the delay line is gone: " + output(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KernelLinkException("interrupted while reading the delay line's counters", e);
        }
    }

    /** True while the process runs. */
    boolean isAlive() {
        return process.isAlive();
    }

    /** The child's process id. */
    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        try {
            commands.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void readOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("ready ")) {
                    ready.countDown();
                } else if (line.startsWith("stats ")) {
                    stats.add(line);
                } else {
                    synchronized (lastLines) {
                        lastLines.addLast(line);
                        if (lastLines.size() > 40) {
                            lastLines.removeFirst();
                        }
                    }
                }
            }
        } catch (IOException e) {
            // the process ended
        }
        ready.countDown();
    }

    private String output() {
        synchronized (lastLines) {
            return String.join("\n", lastLines);
        }
    }

    /** The class path the delay line needs: this module's classes and JNA, wherever they were loaded from. */
    static String classPath() {
        return String.join(File.pathSeparator, location(DelayLine.class), location(Native.class));
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            throw new KernelLinkException("cannot tell where " + type.getName() + " was loaded from, to start the delay line", e);
        }
    }
}
