package org.edgelab.peers.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.edgelab.experiments.target.BuildValidationException;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.peers.PeerTargetContract;
import org.junit.jupiter.api.Test;

/** nginx as a plain file server whose files are created from the origin on first request, for real on loopback. */
class NginxFilesTargetTest extends PeerTargetContract {

    @Override
    protected ServerBuild build() {
        return build("nginx", "files", Map.of());
    }

    @Test
    void theFileServerTakesNoCacheSettingsAndWorkersMustBeANumberOrAuto() {
        assertThatThrownBy(() -> target().validate(build("nginx", "files", Map.of("size", "1G"))))
                .isInstanceOfSatisfying(BuildValidationException.class, e -> assertThat(e.field()).isEqualTo("settings"))
                .hasMessageContaining("size");
        assertThatThrownBy(() -> target().validate(build("nginx", "files", Map.of("worker_processes", "many"))))
                .isInstanceOf(BuildValidationException.class).hasMessageContaining("worker_processes");
        assertThatThrownBy(() -> target().validate(build("nginx", "proxy_cache", Map.of())))
                .isInstanceOf(BuildValidationException.class).hasMessageContaining("needs setting 'size'");
    }
}
