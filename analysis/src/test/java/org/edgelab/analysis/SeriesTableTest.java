package org.edgelab.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

class SeriesTableTest {

    static Path events(String run) {
        try {
            return Path.of(SeriesTableTest.class.getResource("/fixtures/events/" + run).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRestartRunsSeriesHasItsIntervalsAndEventsBesideItsResults() {
        Table results = ResultSet.load(events("restart-r1"));
        Table series = SeriesTable.of(results).orElseThrow();

        Table events = SeriesTable.events(series);
        assertThat(events.stringColumn("event").asList()).containsExactly("kill", "listening", "kill", "listening", "first-hit");
        Table intervals = SeriesTable.intervals(series);
        assertThat(intervals.rowCount()).isEqualTo(series.rowCount() - 5);
        for (String cell : List.of("server=raw-log", "server=memory")) {
            Table mine = intervals.where(intervals.stringColumn("cell").isEqualTo(cell));
            double kill = events.where(events.stringColumn("cell").isEqualTo(cell).and(events.stringColumn("event").isEqualTo("kill")))
                    .doubleColumn("second").get(0);
            Table before = mine.where(mine.doubleColumn("second").isLessThan(kill));
            // report A's target of 92.5 % per second before the kill, from hits / (hits + misses) of each interval
            for (Row r : before) {
                assertThat(r.getDouble("hit_ratio")).isBetween(0.85, 0.98);
                assertThat(r.getDouble("hit_ratio")).isEqualTo(r.getDouble("hits") / (r.getDouble("hits") + r.getDouble("misses")));
                assertThat(r.getDouble("req_per_s")).isEqualTo(r.getDouble("requests") / r.getDouble("interval_s"));
            }
            // an interval wholly inside the outage answered nothing: its hit ratio is missing, not 0, and its errors are
            // the connection attempts refused while nothing listened
            Table dark = mine.where(mine.doubleColumn("requests").isEqualTo(0));
            assertThat(dark.rowCount()).isPositive();
            assertThat(dark.doubleColumn("hit_ratio").countMissing()).isEqualTo(dark.rowCount());
            assertThat(dark.doubleColumn("errors_connect").sum()).isPositive();
        }
        // the series' requests add up to the row's (the part-second after loadgen's last report included)
        for (Row row : results) {
            Table mine = intervals.where(intervals.stringColumn("cell").isEqualTo(row.getString("cell")));
            assertThat(mine.doubleColumn("requests").sum()).isEqualTo(row.getDouble("requests"));
        }
    }

    @Test
    void aChurnRunsSeriesHasAPhaseEach() {
        Table series = SeriesTable.of(ResultSet.load(events("churn-c1"))).orElseThrow();

        assertThat(SeriesTable.distinct(series, "phase")).containsExactly("fresh", "churn", "churned");
        Table churn = series.where(series.stringColumn("phase").isEqualTo("churn"));
        assertThat(churn.doubleColumn("hits").sum()).isZero(); // never-seen objects only
        assertThat(churn.doubleColumn("misses").sum()).isPositive();
        assertThat(SeriesTable.events(series).rowCount()).isZero();
    }

    @Test
    void theDiskFailureKindsShapeReadsWithItsEventsOnItsSeconds(@TempDir Path dir) throws Exception {
        // DiskFailureExperiment.SERIES_COLUMNS: the shared shape from the server's counters, events on the interval rows
        Path file = dir.resolve(SeriesTable.FILE);
        Files.writeString(file, """
                cell,second,requests,hits,errors,bytes,repetition,phase,event
                server=raw-log,0,100,90,0,1000,1,disk-failure,
                server=raw-log,1,80,40,3,800,1,disk-failure,fail
                server=raw-log,2,90,,0,900,1,disk-failure,
                """);
        Table t = SeriesTable.read(file);

        assertThat(SeriesTable.intervals(t).rowCount()).isEqualTo(3);
        assertThat(SeriesTable.events(t).stringColumn("event").asList()).containsExactly("fail");
        assertThat(t.doubleColumn("hit_ratio").asList().subList(0, 2)).containsExactly(0.9, 0.5);
        assertThat(t.doubleColumn("hit_ratio").isMissing(2)).isTrue(); // the server could not tell its hits
        assertThat(t.doubleColumn("req_per_s").asList()).containsExactly(100.0, 80.0, 90.0);
    }

    @Test
    void aRunWithoutASeriesHasNoneAndABrokenOneIsRefusedByName(@TempDir Path dir) throws Exception {
        assertThat(SeriesTable.of(ResultSet.load(TestResults.fixtures()))).isEmpty();

        Path file = dir.resolve(SeriesTable.FILE);
        Files.writeString(file, "cell,repetition,second\nx,1,1.0\n");
        assertThatThrownBy(() -> SeriesTable.read(file)).isInstanceOf(ResultFormatException.class)
                .hasMessageContaining("no column 'requests'");
    }
}
