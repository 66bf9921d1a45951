package org.edgelab.experiments.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** What a machine without a peer or a load client is told. */
class ExecutablesTest {

    @Test
    void aMissingBinaryIsNamedWithTheDebianPackageThatProvidesIt() {
        assertThat(Executables.missing("varnish", "edgelab-no-such-daemon", "sh"))
                .hasValue("edgelab-no-such-daemon not found: apt-get install varnish");
        assertThat(Executables.missing("coreutils", "sh")).isEmpty();
        assertThatThrownBy(() -> Executables.require("edgelab-no-such-daemon", "nginx-light"))
                .isInstanceOf(IOException.class).hasMessage("edgelab-no-such-daemon not found: apt-get install nginx-light");
    }
}
