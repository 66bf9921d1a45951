package org.edgelab.link.kernel;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

/** Skips a test that needs a kernel link where one cannot be made, or fails it when {@code EDGELAB_REQUIRE_ROOT=1} (CI). */
public final class RootRequirement {
    private RootRequirement() {
    }

    /** Call first in a test that makes namespaces. */
    public static void assumeKernelLinks() {
        Optional<String> reason = KernelSupport.unavailableReason();
        if (reason.isPresent() && KernelSupport.rootRequired()) {
            fail(KernelSupport.REQUIRE_ROOT + "=1 but " + reason.get());
        }
        assumeTrue(reason.isEmpty(), () -> reason.orElse(""));
    }
}
