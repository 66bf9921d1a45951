package org.edgelab.experiments.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MatrixExpanderTest {

    @TempDir
    Path dir;

    private Descriptor descriptor(String text) throws IOException {
        return new DescriptorFiles(dir).load("m.yaml", text);
    }

    @Test
    void crossesDimensionsOutermostFirstWithStableIds() throws IOException {
        List<Cell> cells = MatrixExpander.expand(descriptor("""
                name: m
                servers: [{engine: memory}, {name: small, engine: memory, settings: {capacity: 8MB}}]
                load:
                  connections: [10, 100]
                  workload:
                    object_sizes: [100KB, 1MB, 10 MB]
                matrix: [server, object_size, connections]
                """));
        assertThat(cells).hasSize(12);
        assertThat(cells.get(0).id()).isEqualTo("server=memory,object_size=100KB,connections=10");
        assertThat(cells.get(1).id()).isEqualTo("server=memory,object_size=100KB,connections=100");
        assertThat(cells.get(5).id()).isEqualTo("server=memory,object_size=10MB,connections=100");
        assertThat(cells.get(6).id()).isEqualTo("server=small,object_size=100KB,connections=10");
        assertThat(cells).extracting(Cell::index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        assertThat(cells).extracting(Cell::id).doesNotHaveDuplicates();
        assertThat(cells.get(5).objectSize().bytes()).isEqualTo(10_000_000L);
        assertThat(cells.get(5).connections()).isEqualTo(100);
        assertThat(cells.get(6).server().settings()).containsEntry("capacity", "8MB");
        assertThat(cells.get(0).fileName()).isEqualTo("server-memory_object_size-100KB_connections-10");
    }

    @Test
    void matrixOrderSetsIdOrderAndConstantsStayOutOfIds() throws IOException {
        List<Cell> cells = MatrixExpander.expand(descriptor("""
                name: m
                servers: [{engine: memory}]
                load:
                  connections: 7
                  links: [{bandwidth: 1gbit, latency: 40ms}, {name: fast, bandwidth: 10gbit}]
                  workload:
                    object_sizes: [1KB, 2KB]
                    range_sizes: 512
                matrix: [link, object_size]
                """));
        assertThat(cells).extracting(Cell::id).containsExactly(
                "link=1gbit+40ms,object_size=1KB", "link=1gbit+40ms,object_size=2KB",
                "link=fast,object_size=1KB", "link=fast,object_size=2KB");
        assertThat(cells).allSatisfy(c -> {
            assertThat(c.connections()).isEqualTo(7);
            assertThat(c.rangeSize().bytes()).isEqualTo(512);
            assertThat(c.server().name()).isEqualTo("memory");
        });
        assertThat(cells.get(0).link().oneWayLatency()).hasMillis(40);
        assertThat(cells.get(2).link().bitsPerSecond()).isEqualTo(10_000_000_000L);
    }

    @Test
    void defaultMatrixCrossesServerAndEveryListedDimension() throws IOException {
        Descriptor d = descriptor("""
                name: m
                servers: [{engine: memory}]
                load:
                  connections: [1, 2]
                """);
        assertThat(d.matrix()).containsExactly("server", "connections");
        assertThat(MatrixExpander.expand(d)).extracting(Cell::id)
                .containsExactly("server=memory,connections=1", "server=memory,connections=2");
    }
}
