package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsCsvTest {

    @TempDir
    Path dir;

    @Test
    void quotesCellIdsWithCommasAndReadsThemBack() throws IOException {
        Path file = dir.resolve("results.csv");
        ResultsCsv.append(file, List.of(new ResultRow(Map.of("cell", "server=memory,object_size=1MB", "requests", "12",
                "link", "say \"hi\""))));
        ResultsCsv.append(file, List.of(new ResultRow(Map.of("cell", "server=lmdb,object_size=1MB", "requests", "7"))));
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("experiment,cell,repetition,server,target,engine,client,object_size_bytes,connections");
        assertThat(lines.get(1)).contains("\"server=memory,object_size=1MB\"").contains("\"say \"\"hi\"\"\"");
        List<ResultRow> rows = ResultsCsv.read(file);
        assertThat(rows).extracting(r -> r.get("cell")).containsExactly("server=memory,object_size=1MB", "server=lmdb,object_size=1MB");
        assertThat(rows.get(0).get("link")).isEqualTo("say \"hi\"");
        assertThat(rows.get(1).measured("requests")).isEqualTo(7);
        assertThat(rows.get(1).number("bytes")).isNaN();
        assertThatThrownBy(() -> rows.get(1).measured("bytes")).hasMessageContaining("bytes");
    }

    @Test
    void appendingToAFileOfAnOlderLayoutKeepsEveryValueUnderItsOwnHeader() throws IOException {
        // a run resumed after an upgrade: its file lacks a column this version writes, and has one it dropped
        Path file = dir.resolve("results.csv");
        Files.writeString(file, "experiment,cell,requests,retired\nx,a,12,old\n");
        ResultsCsv.append(file, List.of("experiment", "cell", "requests", "hit_ratio_set_requests"),
                List.of(new ResultRow(Map.of("experiment", "x", "cell", "b", "requests", "7",
                        "hit_ratio_set_requests", "0.97"))));
        assertThat(Files.readAllLines(file)).containsExactly(
                "experiment,cell,requests,retired,hit_ratio_set_requests", "x,a,12,old,", "x,b,7,,0.97");
        assertThat(dir.resolve("results.csv.tmp")).doesNotExist();

        // once migrated, later rows are appended in the file's order without rewriting it
        ResultsCsv.append(file, List.of("experiment", "cell", "requests", "hit_ratio_set_requests"),
                List.of(new ResultRow(Map.of("experiment", "x", "cell", "c", "hit_ratio_set_requests", "1"))));
        assertThat(Files.readAllLines(file)).endsWith("x,c,,,1").hasSize(4);
        assertThat(ResultsCsv.read(file)).extracting(r -> r.get("cell")).containsExactly("a", "b", "c");
    }

    @Test
    void numbersAreWrittenPlainWithSixSignificantDigits() {
        assertThat(ExperimentRunner.num(1234567.891)).isEqualTo("1234570");
        assertThat(ExperimentRunner.num(0.000123456789)).isEqualTo("0.000123457");
        assertThat(ExperimentRunner.num(2.5)).isEqualTo("2.5");
        assertThat(ExperimentRunner.num(Double.NaN)).isEmpty();
    }
}
