package org.edgelab.experiments.process.cgroup;

import org.junit.jupiter.api.Assumptions;

/** Skips a test that needs memory cgroups (root) where there are none, saying why; fails instead with {@code EDGELAB_REQUIRE_ROOT=1}. */
public final class CgroupRequirement {

    private CgroupRequirement() {
    }

    /** Returns normally only where {@link Cgroups#hierarchy()} is usable. */
    public static CgroupHierarchy require() {
        Cgroups.unavailableReason().ifPresent(reason -> {
            if ("1".equals(System.getenv("EDGELAB_REQUIRE_ROOT"))) {
                throw new AssertionError("memory cgroups are needed: " + reason + " (EDGELAB_REQUIRE_ROOT=1, so this fails instead of skipping)");
            }
            Assumptions.abort("memory cgroups are needed: " + reason + "; skipped (set EDGELAB_REQUIRE_ROOT=1 to fail instead)");
        });
        return Cgroups.hierarchy().orElseThrow();
    }
}
