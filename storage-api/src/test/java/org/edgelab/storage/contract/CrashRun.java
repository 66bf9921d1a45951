package org.edgelab.storage.contract;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@link CrashHarness} child did before it was killed: the keys whose commit had returned
 * (with their sizes, in commit order), the highest key index it finished with (committed or
 * skipped because the store was full), its exit code and how long it wrote. Immutable.
 *
 * @param engineName     the engine the child opened
 * @param workDir        the harness's work directory (committed-keys file and child logs)
 * @param committed      key to size of every object whose {@code commit()} returned, in order
 * @param highestIndex   the highest index {@code i} of a key {@code crash-i} the child finished
 *                       (committed or skipped), or -1 if none
 * @param exitCode       the child's exit code (137 when killed by SIGKILL)
 * @param writingFor     time from the child's "writing" line to the kill
 */
public record CrashRun(String engineName, Path workDir, Map<String, Long> committed, int highestIndex, int exitCode,
                       Duration writingFor) {

    static final String COMMITTED = "committed";
    static final String SKIPPED = "skipped";
    /** The exit code of a process killed by SIGKILL, as {@link Process#exitValue()} reports it. */
    public static final int SIGKILL_EXIT_CODE = 128 + 9;

    public CrashRun {
        committed = Collections.unmodifiableMap(new LinkedHashMap<>(committed));
    }

    /** Returns whether the child ended by SIGKILL (and not by itself). */
    public boolean killed() {
        return exitCode == SIGKILL_EXIT_CODE;
    }

    /** Returns the number of objects whose commit had returned before the kill. */
    public int committedCount() {
        return committed.size();
    }

    /** Returns the bytes of the objects whose commit had returned before the kill. */
    public long committedBytes() {
        return committed.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The bytes of the committed objects a committed-keys file lists so far; 0 if there is none yet. */
    static long committedBytes(Path keysFile) throws IOException {
        if (!Files.exists(keysFile)) {
            return 0;
        }
        return parse("", keysFile.getParent(), keysFile, -1, Duration.ZERO).committedBytes();
    }

    /** The writes a committed-keys file lists as refused by a full store so far; 0 if there is none yet. */
    static int skippedCount(Path keysFile) throws IOException {
        if (!Files.exists(keysFile)) {
            return 0;
        }
        String text = Files.readString(keysFile, StandardCharsets.US_ASCII);
        int count = 0;
        for (int i = text.indexOf(" " + SKIPPED + "\n"); i >= 0; i = text.indexOf(" " + SKIPPED + "\n", i + 1)) {
            count++;
        }
        return count;
    }

    /** Returns the child's standard error (engine warnings, a stack trace if it failed). */
    public String childErrors() throws IOException {
        Path err = workDir.resolve(CrashHarness.CHILD_STDERR);
        return Files.exists(err) ? Files.readString(err, StandardCharsets.UTF_8) : "";
    }

    /** Parses a committed-keys file; a torn last line (no newline) is ignored. */
    static CrashRun parse(String engineName, Path workDir, Path keysFile, int exitCode, Duration writingFor)
            throws IOException {
        Map<String, Long> committed = new LinkedHashMap<>();
        int highest = -1;
        if (Files.exists(keysFile)) {
            String text = Files.readString(keysFile, StandardCharsets.US_ASCII);
            int end = text.lastIndexOf('\n');
            for (String line : end < 0 ? new String[0] : text.substring(0, end).split("\n")) {
                String[] parts = line.trim().split(" ");
                if (parts.length != 3 || !parts[0].startsWith(CrashHarness.KEY_PREFIX)) {
                    throw new IOException("bad line in " + keysFile + ": '" + line + "'");
                }
                int index = Integer.parseInt(parts[0].substring(CrashHarness.KEY_PREFIX.length()));
                highest = Math.max(highest, index);
                if (COMMITTED.equals(parts[2])) {
                    committed.put(parts[0], Long.parseLong(parts[1]));
                }
            }
        }
        return new CrashRun(engineName, workDir, committed, highest, exitCode, writingFor);
    }
}
