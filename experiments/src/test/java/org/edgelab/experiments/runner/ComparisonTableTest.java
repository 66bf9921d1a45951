package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The table printed at the end of a run: one line per cell, the median of its repetitions. */
class ComparisonTableTest {

    private static ResultRow rep(String cell, String reqPerSecond, String timeouts) {
        Map<String, String> values = new HashMap<>(Map.of("cell", cell, "req_per_s", reqPerSecond));
        for (String kind : List.of("connect", "status_4xx", "status_5xx", "truncated", "closed", "integrity")) {
            values.put("errors_" + kind, "0");
        }
        values.put("errors_timeout", timeouts);
        return new ResultRow(values);
    }

    @Test
    void eachCellShowsTheMedianOfItsRepetitions() {
        StringWriter text = new StringWriter();
        ComparisonTable.print(List.of(
                rep("server=a", "300", "9"), rep("server=a", "1000", "0"), rep("server=a", "1100", "1"),
                rep("server=b", "50", "0"), rep("server=b", "70", "2")), new PrintWriter(text));

        List<String> lines = text.toString().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("cell").contains("req/s").contains("errors");
        // a: the cold first repetition (300 req/s, 9 timeouts) does not move the median
        assertThat(lines.get(1)).startsWith("server=a").contains(" 1000 ").containsPattern("\\s1\\s");
        // b: an even count takes the middle two
        assertThat(lines.get(2)).startsWith("server=b").contains(" 60 ").containsPattern("\\s1\\s");
        assertThat(lines.get(1)).contains(" - "); // a column no row has stays empty
    }

    @Test
    void errorsOfAClientThatCountsFewerClassesAreSummedNotDropped() {
        // a wrk row: no truncated, closed or integrity counts (wrk cannot say), but socket and status errors
        ResultRow wrk = new ResultRow(Map.of("cell", "client=wrk", "req_per_s", "500", "errors_connect", "0",
                "errors_timeout", "1", "errors_read", "2", "errors_write", "0", "errors_status", "4"));
        StringWriter text = new StringWriter();
        ComparisonTable.print(List.of(wrk), new PrintWriter(text));
        assertThat(text.toString().lines().toList().get(1)).startsWith("client=wrk").containsPattern("\\s7\\s");
    }
    @Test
    void besideReqPerSecondTheHalfWidthOfItsIntervalFromTheWindowsOfEveryRepetition() {
        // two repetitions of 4 windows each, sd 10 around 1000 and 1100: pooled, 8 windows around 1050 whose squared
        // deviations sum to 3 * 100 + 3 * 100 within the repetitions plus 8 * 50^2 between them
        ResultRow first = new ResultRow(Map.of("cell", "server=a", "req_per_s", "1000", "req_per_s_windows", "4",
                "req_per_s_window_sd", "10"));
        ResultRow second = new ResultRow(Map.of("cell", "server=a", "req_per_s", "1100", "req_per_s_windows", "4",
                "req_per_s_window_sd", "10"));
        ResultRow wrk = new ResultRow(Map.of("cell", "server=b", "req_per_s", "900", "req_per_s_windows", "",
                "req_per_s_window_sd", ""));
        WindowStats pooled = ComparisonTable.interval(List.of(first, second));
        assertThat(pooled.windows()).isEqualTo(8);
        assertThat(pooled.sd()).isCloseTo(Math.sqrt(20_600 / 7.0), offset(1e-9));
        StringWriter text = new StringWriter();
        ComparisonTable.print(List.of(first, second, wrk), new PrintWriter(text));
        List<String> lines = text.toString().lines().toList();
        assertThat(lines.get(0)).containsPattern("req/s +\\+-95% ");
        // t(0.975, 7) = 2.3646: 2.3646 * 54.25 / sqrt(8) / 1050 = 4.3 %
        assertThat(lines.get(1)).startsWith("server=a").contains(" 1050 ").contains(" 4.3% ");
        assertThat(lines.get(2)).startsWith("server=b").contains(" 900 ").containsPattern(" 900 +- ");
        assertThat(lines.get(3)).startsWith(ComparisonTable.INTERVAL_HEADER + ": half-width of the 95 % confidence interval");
    }

    @Test
    void theCacheJvmsCompileTimeShowsWhereARowHasIt() {
        ResultRow warming = new ResultRow(Map.of("cell", "server=memory", "req_per_s", "200", "server_jit_ms", "1250"));
        ResultRow peer = new ResultRow(Map.of("cell", "server=varnish", "req_per_s", "210", "server_jit_ms", ""));
        StringWriter text = new StringWriter();
        ComparisonTable.print(List.of(warming, peer), new PrintWriter(text));
        List<String> lines = text.toString().lines().toList();
        assertThat(lines.get(0)).endsWith("jit ms");
        assertThat(lines.get(1)).endsWith(" 1250");
        assertThat(lines.get(2)).endsWith(" -");
        StringWriter without = new StringWriter();
        ComparisonTable.print(List.of(rep("server=a", "300", "0")), new PrintWriter(without));
        assertThat(without.toString()).doesNotContain("jit ms");
    }
}
