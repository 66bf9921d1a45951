package org.edgelab.link.kernel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs iproute2 ({@code ip}, {@code tc}) and returns its output; a failure throws {@link KernelLinkException} with
 * the command line and what it printed. Stateless, thread-safe; blocks for the command (at most {@link #TIMEOUT_SECONDS}).
 */
final class Commands {
    static final long TIMEOUT_SECONDS = 20;

    private Commands() {
    }

    /** Runs {@code command}; its standard output. */
    static String run(List<String> command) {
        Result r = attempt(command);
        if (r.exit != 0) {
            throw new KernelLinkException("'" + String.join(" ", command) + "' failed (exit " + r.exit + "): "
                    + r.output.strip());
        }
        return r.output;
    }

    /** Runs {@code command} and returns its exit code and output (stdout and stderr together), failing only if it cannot start. */
    static Result attempt(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new KernelLinkException("cannot run '" + command.get(0) + "' (" + e.getMessage()
                    + "): a kernel link needs iproute2 (apt-get install iproute2)", e);
        }
        try {
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new KernelLinkException("'" + String.join(" ", command) + "' did not finish in " + TIMEOUT_SECONDS + " s");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            p.destroyForcibly();
            throw new KernelLinkException("reading the output of '" + String.join(" ", command) + "' failed", e);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new KernelLinkException("interrupted while running '" + String.join(" ", command) + "'", e);
        }
    }

    /** {@code ip} with {@code args}. */
    static List<String> ip(String... args) {
        List<String> c = new ArrayList<>(List.of("ip"));
        c.addAll(List.of(args));
        return c;
    }

    /** {@code ip -n NS} with {@code args}. */
    static List<String> ipIn(String namespace, String... args) {
        List<String> c = new ArrayList<>(List.of("ip", "-n", namespace));
        c.addAll(List.of(args));
        return c;
    }

    /** {@code tc -n NS} with {@code args}. */
    static List<String> tcIn(String namespace, String... args) {
        List<String> c = new ArrayList<>(List.of("tc", "-n", namespace));
        c.addAll(List.of(args));
        return c;
    }

    /** Exit code and output of a command. */
    record Result(int exit, String output) {
    }
}
