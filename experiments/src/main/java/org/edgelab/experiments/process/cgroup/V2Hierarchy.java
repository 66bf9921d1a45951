package org.edgelab.experiments.process.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * cgroup v2's unified tree: {@code memory.max}, {@code memory.peak}, {@code memory.stat file}; the memory controller is
 * enabled in the parent's {@code cgroup.subtree_control} first. Thread-safe.
 */
record V2Hierarchy(Path parent) implements CgroupHierarchy {

    static final MemoryCgroup.Layout LAYOUT = new MemoryCgroup.Layout("cgroup v2", "memory.max", "memory.current",
            "memory.peak", "file");

    @Override
    public String version() {
        return LAYOUT.version();
    }

    @Override
    public Cgroup create(String name, OptionalLong limitBytes) throws IOException {
        Path subtree = parent.resolve("cgroup.subtree_control");
        String enabled = Files.readString(subtree, StandardCharsets.UTF_8).trim();
        if (!List.of(enabled.split("\\s+")).contains("memory")) {
            try {
                Files.writeString(subtree, "+memory", StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IOException("cannot enable the memory controller for children of " + parent + " (" + e.getMessage()
                        + "); a cgroup v2 with processes of its own cannot delegate it: start EdgeLab in a cgroup of its own,"
                        + " e.g. systemd-run --scope -p Delegate=yes ./edgelab ...", e);
            }
        }
        return MemoryCgroup.create(parent.resolve(name), LAYOUT, limitBytes);
    }
}
