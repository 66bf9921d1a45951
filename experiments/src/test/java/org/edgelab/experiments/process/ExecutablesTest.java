package org.edgelab.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** What a machine without a peer is told. */
class PeerBinariesTest {

    @Test
    void aMissingBinaryIsNamedWithTheDebianPackageThatProvidesIt() {
        assertThat(PeerBinaries.missing("varnish", "edgelab-no-such-daemon", "sh"))
                .hasValue("edgelab-no-such-daemon not found: apt-get install varnish");
        assertThat(PeerBinaries.missing("coreutils", "sh")).isEmpty();
        assertThatThrownBy(() -> PeerBinaries.require("edgelab-no-such-daemon", "nginx-light"))
                .isInstanceOf(IOException.class).hasMessage("edgelab-no-such-daemon not found: apt-get install nginx-light");
    }
}
