package org.edgelab.storage.disk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the system tools a scratch file system needs (mount, losetup, mkfs.ext4, e2fsck). Stateless; blocks until the tool ends. */
final class Commands {

    private static final long TIMEOUT_SECONDS = 60;

    /** What a tool said and how it ended (127: it could not be started, 124: it timed out). */
    record Result(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    private Commands() {
    }

    static Result run(List<String> command) throws InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new Result(127, command.get(0) + " could not be run: " + e.getMessage());
        }
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            out = "(output unreadable: " + e.getMessage() + ")";
        }
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(124, command + " did not finish within " + TIMEOUT_SECONDS + " s");
        }
        return new Result(p.exitValue(), out.strip());
    }

    /** Runs {@code command} and throws, naming it and its output, unless it exits 0. */
    static String require(List<String> command) throws IOException, InterruptedException {
        Result r = run(command);
        if (!r.ok()) {
            throw new IOException(String.join(" ", command) + " failed (exit " + r.exit + "): " + r.output);
        }
        return r.output;
    }
}
