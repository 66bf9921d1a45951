package org.edgelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.edgelab.experiments.client.ClientChoice;
import org.edgelab.experiments.descriptor.ByteSizeValue;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.junit.jupiter.api.Test;

/**
 * Every descriptor under docs/ (the commands docs/BENCHMARKS.md's figures come from) loads as {@code ./edgelab run}
 * loads it, with every engine and target (peers, container) on the class path, so the docs cannot rot; optional
 * builds and clients this machine lacks are left out with a note, as a run would.
 */
class DocsDescriptorsTest {

    private static final Path DOCS = Path.of("..", "docs");

    @Test
    void everyDescriptorInDocsLoads() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(DOCS)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).extracting(p -> p.getFileName().toString())
                .contains("cache-vs-nginx.yaml", "fixed-rate-100k.yaml", "same-load-100k.yaml", "ttfb-split.yaml",
                        "trafficserver-store.yaml");
        for (Path file : files) {
            Descriptor d = DescriptorLoader.load(file.toString(), false);
            assertThat(d.servers()).as(file.toString()).isNotEmpty();
        }
    }

    @Test
    void theWrkFiguresCompareTheClientsInOneRun() {
        Descriptor d = DescriptorLoader.load(DOCS.resolve("same-load-10m.yaml").toString(), false);
        assertThat(d.name()).isEqualTo("same-load-10m");
        assertThat(d.target()).isEqualTo("process");
        assertThat(d.servers()).singleElement().satisfies(s -> {
            assertThat(s.noCache()).isTrue();
            assertThat(s.targetSettings()).containsEntry("origin_faults", "first-byte-delay=20ms&rate=6MB/s");
        });
        assertThat(d.load().objectSizes()).extracting(ByteSizeValue::bytes).containsExactly(10L << 20);
        assertThat(d.matrix()).contains("client");
        assertThat(d.load().clients()).extracting(ClientChoice::kind).contains("loadgen");
    }
}
