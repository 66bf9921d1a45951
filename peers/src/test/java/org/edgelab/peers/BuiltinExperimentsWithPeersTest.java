package org.edgelab.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Targets;
import org.junit.jupiter.api.Test;

class BuiltinExperimentsWithPeersTest {

    @Test
    void varnishEdgeComparesTheEnginesWithEveryInstalledPeer() {
        List<String> peers = List.of("varnish-malloc", "varnish-file", "trafficserver", "nginx-cache");
        for (boolean quick : new boolean[] {false, true}) {
            Descriptor d = DescriptorLoader.load("varnish-edge", quick);
            for (String peer : peers) {
                ServerBuild build = d.servers().stream().filter(s -> s.name().equals(peer)).findFirst().orElse(null);
                if (build == null) {
                    // skipped only because the peer's binary is missing here, never because its target is unknown
                    assertThat(d.notes()).anySatisfy(n -> assertThat(n).contains(peer).contains("apt-get install"));
                    PeerRequirement.assumeAvailable(java.util.Optional.of(peer + " is not installed"));
                } else {
                    assertThat(Targets.get(build.target()).unavailableReason(build)).isEmpty();
                }
            }
            assertThat(d.servers()).extracting(ServerBuild::name).contains("memory");
        }
        // the full run holds nginx's plain-file ceiling beside its proxy_cache, so that both are measured together
        assertThat(DescriptorLoader.load("varnish-edge", false).servers())
                .anySatisfy(s -> assertThat(List.of(s.name(), s.target(), s.engine())).containsExactly("nginx-files", "nginx", "files"));
    }

    @Test
    void storageBoundRunsVarnishFileTrafficServerAndNginxCacheInTheEnginesMemoryLimit() {
        for (boolean quick : new boolean[] {false, true}) {
            Descriptor d = DescriptorLoader.load("storage-bound", quick);
            long limit = d.hardware().memoryBytes();
            for (String peer : List.of("varnish-file", "trafficserver", "nginx-cache")) {
                ServerBuild build = d.servers().stream().filter(s -> s.name().equals(peer)).findFirst().orElse(null);
                if (build == null) {
                    assertThat(d.notes()).anySatisfy(n -> assertThat(n).contains(peer).contains("apt-get install"));
                    PeerRequirement.assumeAvailable(java.util.Optional.of(peer + " is not installed"));
                    continue;
                }
                assertThat(Targets.get(build.target()).runsServerInCgroup()).isTrue();
                assertThat(org.edgelab.experiments.target.ServerMemory.limit(build, limit)).hasValue(limit);
            }
            assertThat(d.servers()).extracting(ServerBuild::target).contains("process").doesNotContain(Targets.DEFAULT);
        }
    }

    @Test
    void boosterHttpHasNginxServingFilesAsItsRawBaseline() {
        Descriptor d = DescriptorLoader.load("booster-http", true);
        ServerBuild nginx = d.servers().stream().filter(s -> s.name().equals("nginx-files")).findFirst().orElse(null);
        if (nginx == null) {
            assertThat(d.notes()).anySatisfy(n -> assertThat(n).contains("nginx-files").contains("apt-get install"));
            PeerRequirement.assumeAvailable(java.util.Optional.of("nginx is not installed"));
            return;
        }
        assertThat(nginx.target()).isEqualTo("nginx");
        assertThat(nginx.engine()).isEqualTo("files");
    }
}
