package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.IntervalSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeriesCsvTest {

    private static Counters counters(long completed, long hits) {
        return new Counters(completed, completed, 0, completed * 10, 0, completed, completed, hits, 0, 0, completed, hits, 0, 0, 0,
                0, new long[6], new long[ErrorClass.values().length]);
    }

    @Test
    void aPhaseShorterThanOneReportIntervalStillHasItsRow() {
        SeriesCsv.Recorder recorder = new SeriesCsv.Recorder("c");
        SeriesCsv.Recorder.Phase phase = recorder.phase(1, "churn");
        // loadgen reported no interval: the whole run is the part-second after its last report
        assertThat(phase.finish(Instant.now(), counters(750, 0), 0.8)).isPresent();

        List<ResultRow> rows = recorder.rows();
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get("phase")).isEqualTo("churn");
        assertThat(rows.get(0).measured("requests")).isEqualTo(750);
        assertThat(rows.get(0).measured("second")).isEqualTo(0.8);
    }

    @Test
    void theTailIsTheTotalsLessTheReportedIntervalsAndEventsSortAmongThem(@TempDir Path dir) throws Exception {
        SeriesCsv.Recorder recorder = new SeriesCsv.Recorder("c");
        SeriesCsv.Recorder.Phase phase = recorder.phase(1, "measured");
        phase.listener().interval(new IntervalSnapshot(1.0, 1.0, 100, counters(100, 90)));
        phase.listener().interval(new IntervalSnapshot(2.0, 1.0, 120, counters(120, 110)));
        Instant start = Instant.now().minusMillis(2500);
        phase.event("kill", start.plusMillis(1500));
        IntervalSnapshot tail = phase.finish(start, counters(250, 225), 2.5).orElseThrow();
        assertThat(tail.counters().completed()).isEqualTo(30);
        assertThat(tail.hits()).isEqualTo(25);

        recorder.write(dir);
        recorder.write(dir); // a cell written again (a resumed run) replaces its rows
        List<ResultRow> rows = ResultsCsv.read(dir.resolve(SeriesCsv.FILE));
        assertThat(rows).extracting(r -> r.get("second")).containsExactly("1", "1.5", "2", "2.5");
        assertThat(rows.get(1).get("event")).isEqualTo("kill");
        assertThat(rows.stream().mapToDouble(r -> r.get("event").isEmpty() ? r.measured("requests") : 0).sum()).isEqualTo(250);
    }

    @Test
    void theWindowsReqPerSecondAreTheIntervalsOfAtLeastHalfASecond() {
        SeriesCsv.Recorder recorder = new SeriesCsv.Recorder("c");
        SeriesCsv.Recorder.Phase phase = recorder.phase(1, "measured");
        phase.listener().interval(new IntervalSnapshot(1.0, 1.0, 100, counters(100, 90)));
        phase.listener().interval(new IntervalSnapshot(2.25, 1.25, 150, counters(150, 140)));
        Instant start = Instant.now().minusMillis(2400);
        phase.event("kill", start.plusMillis(1500));
        // a part-second tail of 0.15 s: 5 requests would read as 33 req/s
        phase.finish(start, counters(255, 235), 2.4);
        assertThat(phase.requestRates()).containsExactly(100.0, 120.0);
    }

    @Test
    void whatCompletedAfterALastReportMadeJustAfterTheRunsEndIsFoldedIntoIt() {
        SeriesCsv.Recorder recorder = new SeriesCsv.Recorder("c");
        SeriesCsv.Recorder.Phase phase = recorder.phase(1, "measured");
        phase.listener().interval(new IntervalSnapshot(1.0, 1.0, 100, counters(100, 90)));
        phase.listener().interval(new IntervalSnapshot(2.001, 1.001, 120, counters(120, 110)));
        // the run's window ended at 2.0 s, a moment before that last report; 4 responses completed after it
        assertThat(phase.finish(Instant.now(), counters(224, 203), 2.0)).isEmpty();

        List<ResultRow> rows = recorder.rows();
        assertThat(rows).extracting(r -> r.measured("requests")).containsExactly(100.0, 124.0);
        assertThat(rows.get(1).measured("hits")).isEqualTo(113);
        assertThat(rows.get(1).measured("interval_s")).isEqualTo(1.001);
    }
}
