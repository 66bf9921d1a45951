package org.edgelab.storage.contract;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StoredObject;

/**
 * SIGKILL tests for engines: {@link #writeAndKill} runs a child JVM that writes objects through
 * the named engine and kills it mid-write; the test then reopens the store and calls
 * {@link #verify}, which fails on any object that is present but not byte-exact, and counts what
 * survived so the test can assert what the engine's durability promise says.
 *
 * <p>Keys are {@code crash-0, crash-1, ...}; the size of {@code crash-i} is {@link #sizeOf(int)}
 * (1 KiB to 4 MiB, mixed) and its bytes are {@link TestContent} with the key's seed, written in
 * chunks of 64 KiB with {@link StoreFixtures#metadata(long)}. Stateless and thread-safe.
 */
public final class CrashHarness {

    static final String KEY_PREFIX = "crash-";
    static final String KEYS_FILE = "committed-keys.txt";
    static final String CHILD_STDOUT = "crash-child.stdout";
    static final String CHILD_STDERR = "crash-child.stderr";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    private static final long MIN_SIZE = 1024;
    private static final long MAX_SIZE = 4L << 20;
    private static final long POLL_MILLIS = 5;

    private CrashHarness() {
    }

    /** Returns the key of the {@code index}-th object the child writes. */
    public static String key(int index) {
        return KEY_PREFIX + index;
    }

    /** Returns the size of the {@code index}-th object: log-uniform in 1 KiB..4 MiB, a pure function of the index. */
    public static long sizeOf(int index) {
        long h = TestContent.seed(key(index));
        double u = (h >>> 11) * 0x1.0p-53;
        long size = Math.round(MIN_SIZE * Math.pow((double) MAX_SIZE / MIN_SIZE, u));
        return Math.max(MIN_SIZE, Math.min(MAX_SIZE, size));
    }

    /**
     * Starts a child JVM (this JVM's java binary, class path and {@code --add-opens} flags) that
     * opens {@code engineName} with {@code settings} through
     * {@link org.edgelab.storage.api.StorageEngines#open} and writes objects in a loop, recording
     * each key in {@code workDir} after its commit returns. Kills the child with SIGKILL
     * {@code killAfter} after it has opened the store, or as soon as the objects it committed add
     * up to {@code commitBudget} bytes, whichever comes first, and waits for it. The child is
     * writing an object at every moment, so the kill always lands mid-write.
     *
     * <p>The budget is what makes "every committed object survives" a fair assertion: a store
     * whose capacity is well above the budget (twice it, say) evicts nothing during the run, so a
     * committed object that is absent after the restart was lost, not evicted. On a fast machine
     * the child writes at page-cache speed (more than 1 GB in 1.5 s here), so a time limit alone
     * cannot promise that. The child may commit a little more than the budget before the kill
     * lands (what it writes in one {@value #POLL_MILLIS} ms poll); {@link CrashRun#committedBytes()}
     * says what it did commit.
     *
     * <p>The settings must point the engine at its own directory (e.g. inside {@code workDir}); the
     * harness uses only the files {@value #KEYS_FILE}, {@value #CHILD_STDOUT} and
     * {@value #CHILD_STDERR} in {@code workDir}.
     *
     * @throws IllegalStateException if the child fails to start or exits before it is killed
     *                               (the message holds its standard error)
     */
    public static CrashRun writeAndKill(String engineName, PluginSettings settings, Duration killAfter, long commitBudget,
                                        Path workDir)
            throws IOException, InterruptedException {
        return writeAndKill(engineName, settings, killAfter, workDir,
                keys -> CrashRun.committedBytes(keys) >= commitBudget);
    }

    /**
     * Like {@link #writeAndKill(String, PluginSettings, Duration, long, Path)}, but kills the child
     * once the store has refused {@code refusals} writes with {@code StorageFullException} (the
     * child skips them and goes on writing), or {@code timeout} after it opened the store: for a
     * store on a full file system, where the kill should land while writes are being refused.
     */
    public static CrashRun writeAndKillOnceRefused(String engineName, PluginSettings settings, int refusals,
                                                   Duration timeout, Path workDir)
            throws IOException, InterruptedException {
        return writeAndKill(engineName, settings, timeout, workDir, keys -> CrashRun.skippedCount(keys) >= refusals);
    }

    /** What ends a crash run before its time limit: a look at the committed-keys file. */
    @FunctionalInterface
    private interface StopCondition {
        boolean reached(Path keysFile) throws IOException;
    }

    private static CrashRun writeAndKill(String engineName, PluginSettings settings, Duration killAfter, Path workDir,
                                         StopCondition stop)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path keysFile = workDir.resolve(KEYS_FILE);
        Files.deleteIfExists(keysFile);
        Path out = workDir.resolve(CHILD_STDOUT);
        Path err = workDir.resolve(CHILD_STDERR);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(inheritedJvmFlags());
        command.add("-XX:+UseSerialGC");
        command.add("-cp");
        command.add(classPath());
        command.add(CrashWriterMain.class.getName());
        command.add(engineName);
        command.add(keysFile.toString());
        for (Map.Entry<String, String> e : settings.asMap().entrySet()) {
            command.add(e.getKey() + "=" + e.getValue());
        }
        Process child = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            awaitReady(child, out, err);
            long started = System.nanoTime();
            long deadline = started + killAfter.toNanos();
            while (System.nanoTime() < deadline && !stop.reached(keysFile)) {
                if (child.waitFor(Math.min(POLL_MILLIS, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)),
                        TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the crash child exited by itself with code " + child.exitValue()
                            + " before it was killed; its errors:\n" + tail(err));
                }
            }
            Duration writingFor = Duration.ofNanos(System.nanoTime() - started);
            child.destroyForcibly();
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the crash child did not die within 30 s of SIGKILL");
            }
            return CrashRun.parse(engineName, workDir, keysFile, child.exitValue(), writingFor);
        } finally {
            if (child.isAlive()) {
                child.destroyForcibly();
                child.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Reads every key {@code crash-0 .. crash-(highestIndex+1)} from the reopened store. Each
     * present object must be complete with the length {@link #sizeOf} gives and byte-exact;
     * otherwise this throws an AssertionError naming the key (and the offset of the first bad
     * byte). A lookup or read failing with {@link CorruptObjectException} counts as the engine
     * detecting (and dropping) a corrupt object.
     */
    public static CrashCheck verify(ObjectStore reopened, CrashRun run) throws IOException {
        int present = 0;
        int absent = 0;
        int corrupt = 0;
        List<String> committedButAbsent = new ArrayList<>();
        int last = run.highestIndex() + 1;
        ByteBuffer buf = ByteBuffer.allocate(256 * 1024);
        for (int i = 0; i <= last; i++) {
            String key = key(i);
            long size = sizeOf(i);
            boolean found;
            try {
                found = verifyOne(reopened, key, size, buf);
            } catch (CorruptObjectException e) {
                corrupt++;
                found = false;
            }
            if (found) {
                present++;
            } else {
                absent++;
                if (run.committed().containsKey(key)) {
                    committedButAbsent.add(key);
                }
            }
        }
        return new CrashCheck(last + 1, present, absent, corrupt, committedButAbsent.size(), committedButAbsent);
    }

    private static boolean verifyOne(ObjectStore store, String key, long size, ByteBuffer buf) throws IOException {
        Optional<StoredObject> found = store.lookup(CacheKey.of(key));
        if (found.isEmpty()) {
            return false;
        }
        long seed = TestContent.seed(key);
        try (StoredObject o = found.get()) {
            if (!o.isComplete()) {
                throw new AssertionError(key + " is visible after restart but not complete");
            }
            if (o.availableLength() != size || o.metadata().length() != size) {
                throw new AssertionError(key + " has length " + o.availableLength() + " (metadata "
                        + o.metadata().length() + "), expected " + size);
            }
            long pos = 0;
            while (pos < size) {
                buf.clear().limit((int) Math.min(buf.capacity(), size - pos));
                int n = o.read(pos, buf);
                if (n <= 0) {
                    throw new AssertionError(key + " ends at offset " + pos + " (read returned " + n
                            + "), expected " + size + " bytes");
                }
                buf.flip();
                TestContent.assertMatches(key, seed, pos, buf);
                pos += n;
            }
            if (o.read(size, buf.clear()) != -1) {
                throw new AssertionError(key + " has bytes past its length " + size);
            }
        }
        return true;
    }

    /** The JVM flags a child needs to behave like this JVM: every {@code --add-opens}. */
    public static List<String> inheritedJvmFlags() {
        List<String> in = ManagementFactory.getRuntimeMXBean().getInputArguments();
        List<String> flags = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            String a = in.get(i);
            if (a.startsWith("--add-opens")) {
                flags.add(a);
                if (a.equals("--add-opens") && i + 1 < in.size()) {
                    flags.add(in.get(++i));
                }
            }
        }
        return flags;
    }

    /**
     * This JVM's class path. Under surefire {@code java.class.path} may be a manifest-only booter
     * jar; surefire then also sets {@code surefire.test.class.path} to the real class path.
     */
    public static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        if (surefire != null && !surefire.isBlank()) {
            return surefire;
        }
        return System.getProperty("java.class.path", "");
    }

    private static void awaitReady(Process child, Path out, Path err) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(out) && Files.readString(out, StandardCharsets.UTF_8).contains(CrashWriterMain.READY)) {
                return;
            }
            if (!child.isAlive()) {
                throw new IllegalStateException("the crash child exited with code " + child.exitValue()
                        + " before it started writing; its errors:\n" + tail(err));
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the crash child did not start writing within " + STARTUP_TIMEOUT.toSeconds()
                + " s; its errors:\n" + tail(err));
    }

    private static String tail(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "(none)";
        }
        String s = Files.readString(file, StandardCharsets.UTF_8);
        return s.length() <= 4000 ? s : "..." + s.substring(s.length() - 4000);
    }
}
