package org.edgelab.experiments.process.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A memory cgroup directory read and written through the file names of its {@link Layout} (v1 or v2). Thread-safe:
 * every call reads or writes cgroupfs; {@link #close()} runs once.
 */
final class MemoryCgroup implements Cgroup {

    private static final System.Logger LOG = System.getLogger(MemoryCgroup.class.getName());
    private static final String JOIN_SCRIPT = "echo $$ > \"$0\" || { echo \"edgelab: cannot join the cgroup $0\" >&2; exit 125; }; "
            + "exec \"$@\"";

    /**
     * The files one cgroup version keeps its figures in.
     *
     * @param version   {@code cgroup v1} or {@code cgroup v2}
     * @param limitFile the memory limit
     * @param usageFile the memory charged now
     * @param peakFile  the highest charge so far
     * @param cacheKey  the page cache's key in {@code memory.stat}
     */
    record Layout(String version, String limitFile, String usageFile, String peakFile, String cacheKey) {
    }

    private final Path path;
    private final Layout layout;
    private final OptionalLong limit;
    private final AtomicBoolean closed = new AtomicBoolean();

    private MemoryCgroup(Path path, Layout layout, OptionalLong limit) {
        this.path = path;
        this.layout = layout;
        this.limit = limit;
    }

    /** Makes the directory and writes the limit; removes the directory again if the limit cannot be set. */
    static MemoryCgroup create(Path path, Layout layout, OptionalLong limitBytes) throws IOException {
        try {
            Files.createDirectory(path);
        } catch (IOException e) {
            throw new IOException("cannot make the " + layout.version() + " memory cgroup " + path + ": " + e, e);
        }
        OptionalLong applied = OptionalLong.empty();
        if (limitBytes.isPresent()) {
            try {
                Files.writeString(path.resolve(layout.limitFile()), Long.toString(limitBytes.getAsLong()), StandardCharsets.UTF_8);
                applied = OptionalLong.of(readLong(path.resolve(layout.limitFile())));
            } catch (IOException | RuntimeException e) {
                killAndRemove(path, layout.version());
                throw new IOException("cannot set " + path.resolve(layout.limitFile()) + " to " + limitBytes.getAsLong() + ": " + e, e);
            }
        }
        return new MemoryCgroup(path, layout, applied);
    }

    @Override
    public String version() {
        return layout.version();
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public OptionalLong limitBytes() {
        return limit;
    }

    @Override
    public String limitFile() {
        return layout.limitFile();
    }

    @Override
    public List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c", JOIN_SCRIPT, path.resolve("cgroup.procs").toString()));
        wrapped.addAll(command);
        return wrapped;
    }

    @Override
    public void join(long pid) throws IOException {
        Files.writeString(path.resolve("cgroup.procs"), Long.toString(pid), StandardCharsets.UTF_8);
    }

    @Override
    public List<Long> pids() throws IOException {
        return pids(path);
    }

    private static List<Long> pids(Path path) throws IOException {
        List<Long> pids = new ArrayList<>();
        for (String line : Files.readAllLines(path.resolve("cgroup.procs"), StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                pids.add(Long.parseLong(line.trim()));
            }
        }
        return pids;
    }

    @Override
    public CgroupMemory memory() throws IOException {
        long cache = -1;
        for (String line : Files.readAllLines(path.resolve("memory.stat"), StandardCharsets.UTF_8)) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[0].equals(layout.cacheKey())) {
                cache = Long.parseLong(f[1]);
            }
        }
        Path peak = path.resolve(layout.peakFile());
        return new CgroupMemory(readLong(path.resolve(layout.usageFile())), Files.exists(peak) ? readLong(peak) : -1, cache);
    }

    private static long readLong(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).trim();
        return text.equals("max") ? Long.MAX_VALUE : Long.parseLong(text);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            killAndRemove(path, layout.version());
        }
    }

    /** Kills every process in the cgroup at {@code path}, waits up to 10 s for them to go, and removes it; logs a failure. */
    static void killAndRemove(Path path, String version) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        try {
            while (true) {
                List<Long> left;
                try {
                    left = pids(path);
                } catch (NoSuchFileException e) {
                    return;
                }
                if (left.isEmpty()) {
                    try {
                        Files.deleteIfExists(path);
                        return;
                    } catch (IOException e) {
                        // EBUSY for a moment after the last process went: try again until the deadline
                        if (System.nanoTime() > deadline) {
                            throw e;
                        }
                    }
                } else {
                    left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
                    if (System.nanoTime() > deadline) {
                        throw new IOException("processes " + left + " are still in it after SIGKILL");
                    }
                }
                Thread.sleep(20);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot remove the " + version + " memory cgroup " + path + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.log(System.Logger.Level.WARNING, "interrupted while removing the " + version + " memory cgroup " + path);
        }
    }
}
