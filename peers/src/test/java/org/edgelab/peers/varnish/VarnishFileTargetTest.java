package org.edgelab.peers.varnish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.edgelab.experiments.target.BuildValidationException;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.peers.PeerTargetContract;
import org.junit.jupiter.api.Test;

/** Varnish with file storage outside the store directory (so close must delete it), for real on loopback. */
class VarnishFileTargetTest extends PeerTargetContract {

    @Override
    protected ServerBuild build() {
        return build("varnish", "file", Map.of("size", "64MB", "path", dir.resolve("elsewhere/varnish.bin").toString(), "threads", "20"));
    }

    @Override
    protected List<Path> removedOnClose(TargetContext context) {
        return List.of(dir.resolve("elsewhere/varnish.bin"));
    }

    @Test
    void sizeIsRequiredAndMustParse() {
        assertThatThrownBy(() -> target().validate(build("varnish", "malloc", Map.of())))
                .isInstanceOfSatisfying(BuildValidationException.class, e -> assertThat(e.field()).isEqualTo("settings"))
                .hasMessageContaining("needs setting 'size'");
        assertThatThrownBy(() -> target().validate(build("varnish", "malloc", Map.of("size", "10 MX"))))
                .isInstanceOf(BuildValidationException.class).hasMessageContaining("size");
        assertThatThrownBy(() -> target().validate(build("varnish", "malloc", Map.of("size", "1G", "threads", "0"))))
                .isInstanceOf(BuildValidationException.class).hasMessageContaining("threads");
    }

    @Test
    void fileStorageUsesDiskAndMallocDoesNot() {
        assertThat(target().usesDisk(build())).isTrue();
        assertThat(target().usesDisk(build("varnish", "malloc", Map.of("size", "1G")))).isFalse();
    }
}
