package org.edgelab.experiments.client;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import org.edgelab.plugin.PluginSettings;

/**
 * Skips a test when wrk is not installed, or fails it when {@code EDGELAB_REQUIRE_PEERS=1} (CI installs wrk
 * with the peers). wrk2 is not a Debian package, so a test of it is skipped without it, never failed.
 */
final class WrkRequirement {

    private WrkRequirement() {
    }

    static void assumeWrk() {
        Optional<String> missing = new WrkClient().unavailableReason(PluginSettings.EMPTY);
        if (missing.isPresent() && "1".equals(System.getenv("EDGELAB_REQUIRE_PEERS"))) {
            fail("EDGELAB_REQUIRE_PEERS=1 but " + missing.get());
        }
        assumeTrue(missing.isEmpty(), () -> "wrk is not installed: " + missing.orElse(""));
    }

    static void assumeWrk2() {
        Optional<String> missing = new Wrk2Client().unavailableReason(PluginSettings.EMPTY);
        assumeTrue(missing.isEmpty(), () -> "wrk2 is not installed (not a Debian package): " + missing.orElse(""));
    }
}
