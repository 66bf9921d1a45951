package org.edgelab.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tech.tablesaw.api.Table;

class RatiosTest {
    @TempDir
    Path dir;

    @Test
    void ratioOfMeansWithTheSpreadOverRepetitionsMatchedOnSize() throws Exception {
        TestResults.writeCsv(dir, List.of(
                TestResults.row("server=raw-1g", "engine=raw-log", "object_size_bytes=100000", "repetition=0", "req_per_s=100"),
                TestResults.row("server=raw-1g", "engine=raw-log", "object_size_bytes=100000", "repetition=1", "req_per_s=120"),
                TestResults.row("server=lmdb-1g", "engine=lmdb", "object_size_bytes=100000", "repetition=0", "req_per_s=50"),
                TestResults.row("server=lmdb-1g", "engine=lmdb", "object_size_bytes=100000", "repetition=1", "req_per_s=60"),
                TestResults.row("server=raw-1g", "engine=raw-log", "object_size_bytes=1000000", "repetition=0", "req_per_s=30"),
                TestResults.row("server=lmdb-1g", "engine=lmdb", "object_size_bytes=1000000", "repetition=0", "req_per_s=30")));

        Table ratios = Ratios.between(ResultSet.load(dir), "engine", "raw-log", "lmdb", "req_per_s");

        assertThat(ratios.columnNames()).contains("object_size_bytes", "experiment").doesNotContain("server");
        Table small = ratios.where(ratios.stringColumn("object_size_bytes").isEqualTo("100000"));
        assertThat(small.doubleColumn("req_per_s_raw-log").getDouble(0)).isEqualTo(110.0);
        assertThat(small.doubleColumn("req_per_s_lmdb").getDouble(0)).isEqualTo(55.0);
        assertThat(small.doubleColumn("ratio").getDouble(0)).isEqualTo(2.0);
        assertThat(small.doubleColumn("ratio_min").getDouble(0)).isCloseTo(100.0 / 60, within(1e-12));
        assertThat(small.doubleColumn("ratio_max").getDouble(0)).isCloseTo(120.0 / 50, within(1e-12));
        assertThat(small.intColumn("repetitions_a").get(0)).isEqualTo(2);
        Table large = ratios.where(ratios.stringColumn("object_size_bytes").isEqualTo("1000000"));
        assertThat(large.doubleColumn("ratio").getDouble(0)).isEqualTo(1.0);
    }

    @Test
    void onTheFixtureEveryCellIsCompared() {
        Table ratios = Ratios.between(ResultSet.load(TestResults.fixtures()), "engine", "raw-log", "lmdb", "req_per_s");
        assertThat(ratios.rowCount()).isEqualTo(6);
        assertThat(ratios.doubleColumn("ratio_min").subtract(ratios.doubleColumn("ratio")).max()).isLessThanOrEqualTo(0);
        assertThat(ratios.doubleColumn("ratio_max").subtract(ratios.doubleColumn("ratio")).min()).isGreaterThanOrEqualTo(0);
    }

    @Test
    void anAbsentValueIsNamed() {
        Table results = ResultSet.load(TestResults.fixtures());
        assertThatThrownBy(() -> Ratios.between(results, "engine", "raw-log", "rocksdb", "req_per_s"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("engine=rocksdb").hasMessageContaining("lmdb");
    }
}
