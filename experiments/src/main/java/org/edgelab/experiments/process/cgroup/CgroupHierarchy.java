package org.edgelab.experiments.process.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Where EdgeLab makes its memory cgroups: a directory of one mounted hierarchy (v1's memory controller or v2's
 * unified tree), under the runner's own cgroup. Thread-safe; calls write cgroupfs and may block briefly.
 */
public interface CgroupHierarchy {

    /** {@code cgroup v1} or {@code cgroup v2}. */
    String version();

    /** The directory new cgroups are made in. */
    Path parent();

    /**
     * Makes a cgroup {@code name} (a single path segment starting {@link Cgroups#PREFIX}) with a memory limit of
     * {@code limitBytes}, or no limit when empty.
     *
     * @throws IOException if it cannot be made or limited (permissions, a missing controller); the message says which file failed
     */
    Cgroup create(String name, OptionalLong limitBytes) throws IOException;
}
