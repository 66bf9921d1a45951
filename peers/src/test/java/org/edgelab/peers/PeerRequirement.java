package org.edgelab.peers;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

/** Skips a test whose peer is not installed, or fails it when {@code EDGELAB_REQUIRE_PEERS=1} (CI). */
public final class PeerRequirement {

    private PeerRequirement() {
    }

    /** Whether CI demands every peer. */
    public static boolean required() {
        return "1".equals(System.getenv("EDGELAB_REQUIRE_PEERS"));
    }

    /** Skips (or, when required, fails) if {@code unavailable} says something is missing. */
    public static void assumeAvailable(Optional<String> unavailable) {
        if (unavailable.isPresent()) {
            if (required()) {
                fail("EDGELAB_REQUIRE_PEERS=1 but " + unavailable.get());
            }
            assumeTrue(false, unavailable.get());
        }
    }
}
