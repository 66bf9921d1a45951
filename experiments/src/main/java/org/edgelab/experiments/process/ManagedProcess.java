package org.edgelab.experiments.process;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process the runner supervises: started with stdout and stderr in one log file, waited for
 * until it answers, stopped with its descendants (SIGTERM, then SIGKILL after a grace period) by
 * {@link #close()}, which is idempotent. A JVM shutdown hook stops it too if the runner dies first.
 * Thread-safe.
 */
public final class ManagedProcess implements AutoCloseable {

    private static final Duration GRACE = Duration.ofSeconds(10);
    /** How often {@link #awaitLogLine} reads the log: a server's start is waited for at most this much longer. */
    private static final Duration LOG_POLL = Duration.ofMillis(5);

    private final String name;
    private final Process process;
    private final Path log;
    private final Thread hook;

    private ManagedProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.hook = new Thread(this::stop, "edgelab-stop-" + name);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts {@code command} in {@code workDir}; its output goes to {@code workDir/<name>.log}. */
    public static ManagedProcess start(String name, List<String> command, Path workDir) throws IOException {
        Files.createDirectories(workDir);
        Path log = workDir.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IOException("cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
        return new ManagedProcess(name, process, log);
    }

    /** The process id. */
    public long pid() {
        return process.pid();
    }

    /** The log file (stdout and stderr). */
    public Path log() {
        return log;
    }

    /** Whether the process is still running. */
    public boolean alive() {
        return process.isAlive();
    }

    /** CPU seconds of the process and its descendants so far (see {@link ProcessCpu}). */
    public double cpuSeconds() throws IOException {
        return ProcessCpu.treeSeconds(process.pid());
    }

    /**
     * Waits until the log has a line matching {@code pattern} and returns its first group (for example the
     * port a server printed when it bound port 0).
     *
     * @throws IOException if the process exits first or {@code timeout} passes; the message quotes the log's tail
     */
    public String awaitLogLine(Pattern pattern, Duration timeout) throws IOException, InterruptedException {
        return awaitLogLine(pattern, timeout, List.of());
    }

    /**
     * {@link #awaitLogLine(Pattern, Duration)} while {@code companions} start beside this process: fails as soon as one of
     * them exits too, quoting its log, so that a start waiting on two servers learns of either's failure at once.
     */
    public String awaitLogLine(Pattern pattern, Duration timeout, List<ManagedProcess> companions)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
            Matcher m = pattern.matcher(text);
            if (m.find()) {
                return m.groupCount() > 0 ? m.group(1) : m.group();
            }
            failIfDeadOrLate(deadline, timeout, "print a line matching /" + pattern + "/");
            for (ManagedProcess companion : companions) {
                companion.failIfDead("while " + name + " was starting");
            }
            Thread.sleep(LOG_POLL.toMillis());
        }
    }

    /**
     * Waits until {@code GET uri} gets any HTTP answer.
     *
     * @throws IOException if the process exits first or {@code timeout} passes; the message quotes the log's tail
     */
    public void awaitHttp(URI uri, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                // on the calling thread: a server in a network namespace answers only that namespace's threads
                PlainHttp.get(uri, Duration.ofSeconds(2));
                // an answer after the deadline is late: a caller that asked for a bound gets it
                failIfDeadOrLate(deadline, timeout, "answer " + uri);
                return;
            } catch (IOException e) {
                failIfDeadOrLate(deadline, timeout, "answer " + uri);
                Thread.sleep(50);
            }
        }
    }

    private void failIfDeadOrLate(long deadline, Duration timeout, String what) throws IOException {
        failIfDead("before it did " + what);
        if (System.nanoTime() > deadline) {
            throw new IOException(name + " did not " + what + " within " + timeout.toSeconds() + " s; last lines of "
                    + log + ":\n" + tail(20));
        }
    }

    private void failIfDead(String when) throws IOException {
        if (!process.isAlive()) {
            throw new IOException(name + " exited with status " + process.exitValue() + " " + when + "; last lines of " + log
                    + ":\n" + tail(20));
        }
    }

    /**
     * Renames the log to {@code <name>.<suffix>.log} beside it, so that a new start under the same name does not overwrite
     * it, and returns where it went (the log itself if it could not be renamed). Call once the process has ended.
     */
    public Path keepLog(String suffix) {
        Path kept = log.resolveSibling(log.getFileName().toString().replaceFirst("\\.log$", "") + "." + suffix + ".log");
        try {
            Files.move(log, kept, StandardCopyOption.REPLACE_EXISTING);
            return kept;
        } catch (IOException e) {
            return log;
        }
    }

    /** The last {@code lines} lines of the log (for error messages). */
    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | java.io.UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /**
     * Waits up to {@code timeout} for the process to end on its own and returns its exit status, or empty
     * if it is still running then (the caller decides: usually {@link #close()}).
     */
    public Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? Optional.of(process.exitValue()) : Optional.empty();
    }

    /** The exit status once the process has ended. */
    public Optional<Integer> exitStatus() {
        return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    private void stop() {
        awaitStopped(terminate(), System.nanoTime() + GRACE.toNanos());
    }

    /** Sends SIGTERM to the process and its descendants; returns the descendants it signalled. */
    private List<ProcessHandle> terminate() {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        return descendants;
    }

    /** Waits until {@code deadline} (nanoTime) for the process to end, then kills it and whatever is left of {@code descendants}. */
    private void awaitStopped(List<ProcessHandle> descendants, long deadline) {
        try {
            if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                process.destroyForcibly();
                process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Kills the process and its descendants at once (SIGKILL, no grace: a crash, as the kernel's OOM killer or a power
     * cut would leave the store) and waits up to 10 s for the process to be gone; {@link #close()} still follows.
     *
     * @throws IOException if it is still alive after that
     */
    public void kill() throws IOException, InterruptedException {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IOException(name + " (pid " + process.pid() + ") is still alive " + GRACE.toSeconds() + " s after SIGKILL");
        }
        for (ProcessHandle d : descendants) {
            d.onExit().completeOnTimeout(d, GRACE.toMillis(), TimeUnit.MILLISECONDS).join();
        }
    }

    @Override
    public void close() {
        stop();
        removeHook();
    }

    /**
     * Closes every one of {@code processes} at once, as {@link #close()} closes one: all are sent SIGTERM first and share
     * one grace period, so stopping several takes about as long as the slowest, not their sum. Blocks until they have
     * ended; idempotent.
     */
    public static void closeAll(List<ManagedProcess> processes) {
        List<List<ProcessHandle>> descendants = processes.stream().map(ManagedProcess::terminate).toList();
        long deadline = System.nanoTime() + GRACE.toNanos();
        for (int i = 0; i < processes.size(); i++) {
            processes.get(i).awaitStopped(descendants.get(i), deadline);
            processes.get(i).removeHook();
        }
    }

    private void removeHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down and the hook is stopping the process
        }
    }
}
