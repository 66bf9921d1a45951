package org.edgelab.experiments.process.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/** cgroup v1's memory controller: {@code memory.limit_in_bytes}, {@code memory.max_usage_in_bytes}, {@code total_cache}. Thread-safe. */
record V1Hierarchy(Path parent) implements CgroupHierarchy {

    static final MemoryCgroup.Layout LAYOUT = new MemoryCgroup.Layout("cgroup v1", "memory.limit_in_bytes",
            "memory.usage_in_bytes", "memory.max_usage_in_bytes", "total_cache");

    @Override
    public String version() {
        return LAYOUT.version();
    }

    @Override
    public Cgroup create(String name, OptionalLong limitBytes) throws IOException {
        return MemoryCgroup.create(parent.resolve(name), LAYOUT, limitBytes);
    }
}
