package org.edgelab.experiments.descriptor.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code servers[].topology}: tiers of {@code builds:} with replicas and parents, and load workers, on the netns target;
 * an unknown build, a cycle of parents, more workers than connections and the other bad input refused at load with
 * file:line:col.
 */
class TopologyFieldTest {

    private static final String BUILDS = """
            name: t
            builds:
              - {name: edge-mem, engine: memory, settings: {capacity: 64MiB}}
              - {name: parent-mem, engine: memory, settings: {capacity: 128MiB}}
            """;

    @TempDir
    Path dir;

    private DescriptorFiles files() {
        return new DescriptorFiles(dir);
    }

    private static String topology(String tiers, int workers, int connections) {
        return BUILDS + """
                servers:
                  - name: two-tier
                    target: netns
                    topology:
                      workers: %d
                      tiers:
                %s
                load:
                  connections: %d
                """.formatted(workers, tiers.lines().map(l -> "        " + l.strip()).collect(java.util.stream.Collectors.joining("\n")),
                connections);
    }

    private static final String TWO_TIERS = """
                    - {name: edge, build: edge-mem, replicas: 2, parent: parent}
                    - {name: parent, build: parent-mem}""";

    @Test
    void aTwoTierTopologyLoadsWithItsBuildsReplicasAndParents() throws IOException {
        Descriptor d = files().load("ok.yaml", topology(TWO_TIERS, 3, 30));
        assertThat(d.servers()).hasSize(1);
        ServerBuild build = d.servers().get(0);
        assertThat(build.target()).isEqualTo("netns");
        assertThat(build.engine()).isEqualTo("memory");
        Topology t = build.topology();
        assertThat(t.workers()).isEqualTo(3);
        assertThat(t.tiers()).extracting(Topology.Tier::name).containsExactly("edge", "parent");
        assertThat(t.edge().replicas()).isEqualTo(2);
        assertThat(t.edge().build().settings()).containsEntry("capacity", "64MiB");
        assertThat(t.parentOf(t.edge()).name()).isEqualTo("parent");
        assertThat(t.parentOf(t.tiers().get(1))).isNull();
        assertThat(t.nodes()).isEqualTo(3);
    }

    @Test
    void aTierNamingAnUnknownBuildIsRefusedAtItsLine() throws IOException {
        DescriptorException e = files().failure("unknown.yaml", topology("""
                    - {name: edge, build: edge-mem, parent: parent}
                    - {name: parent, build: shield-mem}""", 1, 10));
        assertThat(e.line()).isEqualTo(12);
        assertThat(e.field()).isEqualTo("servers[0].topology.tiers[1].build");
        assertThat(e.getMessage()).contains("'shield-mem'").contains("edge-mem").contains("parent-mem");
    }

    @Test
    void aCycleOfParentsIsRefusedNamingIt() throws IOException {
        DescriptorException e = files().failure("cycle.yaml", topology("""
                    - {name: edge, build: edge-mem, parent: mid}
                    - {name: mid, build: parent-mem, parent: top}
                    - {name: top, build: parent-mem, parent: mid}""", 1, 10));
        assertThat(e.line()).isEqualTo(11);
        assertThat(e.field()).isEqualTo("servers[0].topology.tiers[0].parent");
        assertThat(e.getMessage()).contains("cycle").contains("edge -> mid -> top -> mid");
    }

    @Test
    void moreWorkersThanConnectionsIsRefusedAtTheWorkers() throws IOException {
        DescriptorException e = files().failure("workers.yaml", topology(TWO_TIERS, 4, 3));
        assertThat(e.line()).isEqualTo(9);
        assertThat(e.field()).isEqualTo("servers[0].topology.workers");
        assertThat(e.getMessage()).contains("4 load workers need at least 4 connections");
    }

    @Test
    void theOtherMistakesAreRefusedWhereTheyAre() throws IOException {
        DescriptorException parent = files().failure("parent.yaml", topology("""
                    - {name: edge, build: edge-mem, parent: shield}""", 1, 10));
        assertThat(parent.field()).isEqualTo("servers[0].topology.tiers[0].parent");
        assertThat(parent.getMessage()).contains("'shield'").contains("no tier");

        DescriptorException stray = files().failure("stray.yaml", topology("""
                    - {name: edge, build: edge-mem}
                    - {name: parent, build: parent-mem}""", 1, 10));
        assertThat(stray.field()).isEqualTo("servers[0].topology.tiers[1].parent");
        assertThat(stray.getMessage()).contains("not on the edge tier's way to the origin");

        DescriptorException twice = files().failure("twice.yaml", topology("""
                    - {name: edge, build: edge-mem, parent: edge}""", 1, 10));
        assertThat(twice.getMessage()).contains("cycle");

        DescriptorException elsewhere = files().failure("process.yaml", topology(TWO_TIERS, 1, 10).replace("target: netns", "target: process"));
        assertThat(elsewhere.field()).isEqualTo("servers[0].topology");
        assertThat(elsewhere.getMessage()).contains("netns");

        DescriptorException engine = files().failure("engine.yaml", BUILDS + "servers: [{name: x, target: netns, engine: memory}]\n");
        assertThat(engine.field()).isEqualTo("servers[0].target");
        assertThat(engine.getMessage()).contains("topology");

        DescriptorException origin = files().failure("origin.yaml", topology("""
                    - {name: origin, build: edge-mem}""", 1, 10));
        assertThat(origin.field()).isEqualTo("servers[0].topology.tiers[0].name");

        DescriptorException heap = files().failure("heap.yaml", topology(TWO_TIERS, 1, 10)
                .replace("    topology:", "    target_settings: {heap: 100m}\n    topology:"));
        assertThat(heap.field()).isEqualTo("servers[0].target_settings.heap");
        assertThat(heap.getMessage()).contains("must exceed the memory capacity");

        DescriptorException client = files().failure("client.yaml", topology(TWO_TIERS, 1, 10) + "  client: wrk\n");
        assertThat(client.field()).isEqualTo("load.client");
    }
}
