package org.edgelab.experiments.process.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the memory cgroup hierarchy this machine mounts (cgroup v2 where {@code /sys/fs/cgroup} is cgroup2 with
 * the memory controller, otherwise v1's memory controller at {@code /sys/fs/cgroup/memory}), makes EdgeLab's
 * cgroups under the runner's own cgroup, and sweeps leftovers of runners that died. Stateless apart from a
 * counter for unique names; thread-safe.
 */
public final class Cgroups {

    /** Every cgroup EdgeLab makes is named {@code edgelab-<runner pid>-<n>-<label>}. */
    public static final String PREFIX = "edgelab-";

    private static final System.Logger LOG = System.getLogger(Cgroups.class.getName());
    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private static final Pattern OWNED = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-.*");
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private Cgroups() {
    }

    /**
     * The hierarchy memory cgroups are made in, or why there is none: no memory controller mounted, or its
     * directory not writable (EdgeLab needs root, or a delegated cgroup, to limit memory).
     */
    public static Optional<CgroupHierarchy> hierarchy() {
        return find().hierarchy;
    }

    /** Why {@link #hierarchy()} is empty; empty when it is not. */
    public static Optional<String> unavailableReason() {
        return find().reason;
    }

    /**
     * Makes a cgroup for {@code label} (sanitised into its name) with {@code limitBytes} of memory, or no limit when
     * empty, in this machine's hierarchy; sweeps leftovers of dead runners first.
     *
     * @throws IOException saying why when there is no usable hierarchy or the cgroup cannot be made
     */
    public static Cgroup create(String label, OptionalLong limitBytes) throws IOException {
        Found found = find();
        if (found.hierarchy.isEmpty()) {
            throw new IOException(found.reason.orElse("no memory cgroup"));
        }
        CgroupHierarchy h = found.hierarchy.get();
        sweep(h);
        String safe = label.replaceAll("[^A-Za-z0-9_.-]", "_");
        String name = PREFIX + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet() + "-"
                + safe.substring(0, Math.min(safe.length(), 80));
        return h.create(name, limitBytes);
    }

    /**
     * Removes the EdgeLab cgroups under {@code hierarchy}'s parent whose runner (the pid in the name) is gone, killing
     * any process still in them (a server a killed runner could not stop); returns how many it removed.
     */
    public static int sweep(CgroupHierarchy hierarchy) {
        int removed = 0;
        try (DirectoryStream<Path> children = Files.newDirectoryStream(hierarchy.parent(), PREFIX + "*")) {
            for (Path child : children) {
                Matcher m = OWNED.matcher(child.getFileName().toString());
                if (!m.matches() || !Files.isDirectory(child)) {
                    continue;
                }
                long owner = Long.parseLong(m.group(1));
                if (ProcessHandle.of(owner).filter(ProcessHandle::isAlive).isPresent()) {
                    continue;
                }
                LOG.log(System.Logger.Level.INFO, "removing the leftover cgroup {0} of runner {1}, which is gone", child, owner);
                MemoryCgroup.killAndRemove(child, hierarchy.version());
                removed += Files.exists(child) ? 0 : 1;
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot sweep leftover cgroups in " + hierarchy.parent() + ": " + e.getMessage());
        }
        return removed;
    }

    private record Found(Optional<CgroupHierarchy> hierarchy, Optional<String> reason) {
        static Found none(String reason) {
            return new Found(Optional.empty(), Optional.of(reason));
        }
    }

    private static Found find() {
        List<String> own;
        try {
            own = Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Found.none("/proc/self/cgroup is not readable (" + e.getMessage() + "): no cgroups here");
        }
        Path controllers = ROOT.resolve("cgroup.controllers");
        if (Files.isRegularFile(controllers)) {
            String path = ownPath(own, "");
            if (path == null) {
                return Found.none("/sys/fs/cgroup is cgroup2 but /proc/self/cgroup has no 0:: line");
            }
            Path parent = ROOT.resolve(path.substring(1));
            try {
                if (!List.of(Files.readString(controllers).trim().split("\\s+")).contains("memory")) {
                    return Found.none("cgroup v2 is mounted at /sys/fs/cgroup without the memory controller");
                }
            } catch (IOException e) {
                return Found.none("cannot read " + controllers + ": " + e.getMessage());
            }
            return writable(new V2Hierarchy(parent));
        }
        Path v1 = ROOT.resolve("memory");
        if (Files.isRegularFile(v1.resolve("memory.limit_in_bytes"))) {
            String path = ownPath(own, "memory");
            Path parent = path == null ? v1 : v1.resolve(path.substring(1));
            return writable(new V1Hierarchy(Files.isDirectory(parent) ? parent : v1));
        }
        return Found.none("no memory cgroup controller is mounted (neither cgroup2 at /sys/fs/cgroup nor v1 at "
                + "/sys/fs/cgroup/memory)");
    }

    private static Found writable(CgroupHierarchy h) {
        if (!Files.isWritable(h.parent())) {
            return Found.none(h.version() + " at " + h.parent() + " is not writable by this user: memory limits need root"
                    + " (or a cgroup delegated to this user)");
        }
        return new Found(Optional.of(h), Optional.empty());
    }

    /** The path of this process's cgroup for {@code controller} ("" for v2's unified line), e.g. {@code /user.slice}. */
    static String ownPath(List<String> procSelfCgroup, String controller) {
        for (String line : procSelfCgroup) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && (controller.isEmpty() ? f[0].equals("0") && f[1].isEmpty()
                    : List.of(f[1].split(",")).contains(controller))) {
                return f[2].isEmpty() ? "/" : f[2];
            }
        }
        return null;
    }
}
