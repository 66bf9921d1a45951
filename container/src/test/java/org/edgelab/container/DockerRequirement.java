package org.edgelab.container;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

/** Skips a test when Docker is not usable here, or fails it when {@code EDGELAB_REQUIRE_DOCKER=1} (CI). */
final class DockerRequirement {

    private DockerRequirement() {
    }

    static void assumeDocker() {
        Optional<String> reason = ContainerTarget.dockerUnavailableReason();
        if (reason.isPresent() && "1".equals(System.getenv("EDGELAB_REQUIRE_DOCKER"))) {
            fail("EDGELAB_REQUIRE_DOCKER=1 but " + reason.get());
        }
        assumeTrue(reason.isEmpty(), () -> reason.orElse(""));
    }
}
