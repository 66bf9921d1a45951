package org.edgelab.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tech.tablesaw.api.Table;

class ResultSetTest {
    @TempDir
    Path dir;

    @Test
    void loadsTheFixtureRunFromAFolderAboveIt() {
        Table results = ResultSet.load(TestResults.fixtures());

        assertThat(results.rowCount()).isEqualTo(24);
        assertThat(results.column(ResultColumns.SOURCE_DIR).unique().size()).isEqualTo(1);
        assertThat(results.stringColumn(ResultColumns.SOURCE_DIR).get(0)).endsWith("20261130-040000");
        assertThat(ResultColumns.dimensions(results)).contains("experiment", "server", "engine", "object_size_bytes", "connections")
                .doesNotContain("cell", "repetition", "req_per_s", "hlog", ResultColumns.SOURCE_DIR);
        assertThat(results.doubleColumn("req_per_s").removeMissing().size()).isEqualTo(24);
    }

    @Test
    void extraColumnsAreToleratedAndFoldersAreAppended() throws Exception {
        TestResults.writeCsv(dir.resolve("a"), List.of(TestResults.row("engine=x", "req_per_s=10", "a_new_metric=7")));
        TestResults.writeCsv(dir.resolve("b"), List.of(TestResults.row("engine=y", "req_per_s=20")));

        Table results = ResultSet.load(dir.resolve("a"), dir.resolve("b"));

        assertThat(results.rowCount()).isEqualTo(2);
        assertThat(results.stringColumn("a_new_metric").asList()).containsExactly("7", "");
        assertThat(results.doubleColumn("req_per_s").asList()).containsExactly(10.0, 20.0);
        assertThat(results.stringColumn(ResultColumns.SOURCE_DIR).asList())
                .containsExactly(dir.resolve("a").toAbsolutePath().toString(), dir.resolve("b").toAbsolutePath().toString());
    }

    @Test
    void aMissingColumnIsNamedWithTheFile() throws Exception {
        Map<String, String> row = TestResults.row();
        row.remove("goodput_bps");
        Path file = TestResults.writeCsv(dir.resolve("run"), List.of(row));

        assertThatThrownBy(() -> ResultSet.load(dir))
                .isInstanceOf(ResultFormatException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("no column 'goodput_bps'");
    }

    @Test
    void aFolderWithoutResultsIsNamed() throws Exception {
        Files.createDirectories(dir.resolve("empty"));
        assertThatThrownBy(() -> ResultSet.load(dir.resolve("empty")))
                .isInstanceOf(ResultFormatException.class).hasMessageContaining("empty").hasMessageContaining("results.csv");
    }

    @Test
    void aStreamsOnlyFileLoadsWithTheRequestColumnsMissing() throws Exception {
        Table results = ResultSet.load(TestResults.fixtures("video-streams"));

        assertThat(results.rowCount()).isEqualTo(6);
        assertThat(results.doubleColumn("streams_sustained").asList()).containsExactly(96.0, 100.0, 104.0, 138.0, 140.0, 142.0);
        assertThat(results.doubleColumn("req_per_s").countMissing()).isEqualTo(6);
        assertThat(ResultColumns.dimensions(results)).containsExactly("experiment", "server", "engine", "target", "link", "link_bps");
    }

    @Test
    void aStreamsFileMissingAStreamColumnIsNamed() throws Exception {
        Files.createDirectories(dir.resolve("run"));
        Path file = dir.resolve("run/results.csv");
        Files.write(file, List.of("experiment,cell,repetition,server,stream_bitrate_bps,streams_sustained,frame_latency_p99_ms",
                "video-streams,a,1,memory,5600000,12,20"));

        assertThatThrownBy(() -> ResultSet.load(dir))
                .isInstanceOf(ResultFormatException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("no column 'min_lookahead_frames' (a video-streams column)");
    }

    @Test
    void theThreeFixtureExperimentsLoadTogether() {
        Table results = ResultSet.load(TestResults.allFixtures());

        assertThat(results.stringColumn("experiment").unique().asList())
                .containsExactlyInAnyOrder("varnish-edge", "booster-http", "video-streams");
        assertThat(results.rowCount()).isEqualTo(24 + 16 + 6);
    }
}
