/**
 * Memory cgroups the runner puts a server under test in: one per cell, named {@code edgelab-<runner pid>-...}
 * under the runner's own cgroup, with a memory limit (cgroup v1 {@code memory.limit_in_bytes} where only v1's
 * memory controller is mounted, v2 {@code memory.max} where {@code /sys/fs/cgroup} is cgroup2), read back for
 * the peak and the page cache, and removed afterwards. {@link org.edgelab.experiments.process.cgroup.Cgroups}
 * picks the implementation from what is mounted.
 */
package org.edgelab.experiments.process.cgroup;
