package org.edgelab.analysis;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/** Test helpers: writes small results.csv files and .hlog files the way the runner and loadgen do. */
final class TestResults {
    private TestResults() {
    }

    /** The hand-made varnish-edge fixture results (one run: 2 engines x 3 sizes x 2 concurrencies x 2 repetitions). */
    static Path fixtures() {
        return fixtures("varnish-edge");
    }

    /** The hand-made fixture results of {@code experiment} (varnish-edge, booster-http or video-streams; see fixtures/README.md). */
    static Path fixtures(String experiment) {
        return allFixtures().resolve(experiment);
    }

    /** The folder above every fixture run (three experiments). */
    static Path allFixtures() {
        try {
            return Path.of(TestResults.class.getResource("/fixtures/results").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One row: every required column defaults to 0 (hlog blank), overridden by {@code values} ("k=v" pairs). */
    static Map<String, String> row(String... values) {
        Map<String, String> row = new LinkedHashMap<>();
        row.put("experiment", "test");
        row.put("cell", "0");
        row.put("repetition", "0");
        for (String column : ResultColumns.REQUEST_COLUMNS) {
            row.put(column, "0");
        }
        row.put(ResultColumns.HLOG_TTLB, "");
        for (String pair : values) {
            int eq = pair.indexOf('=');
            row.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return row;
    }

    /** Writes {@code rows} as {@code dir/results.csv} (columns: the union, in first-seen order). */
    static Path writeCsv(Path dir, List<Map<String, String>> rows) throws IOException {
        Files.createDirectories(dir);
        Set<String> columns = new LinkedHashSet<>();
        rows.forEach(r -> columns.addAll(r.keySet()));
        List<String> lines = new ArrayList<>();
        lines.add(String.join(",", columns));
        for (Map<String, String> r : rows) {
            lines.add(String.join(",", columns.stream().map(c -> r.getOrDefault(c, "")).toList()));
        }
        Path file = dir.resolve(ResultSet.RESULTS_FILE);
        Files.write(file, lines);
        return file;
    }

    /** Writes an interval log with HistogramLogWriter; each array is one interval of values in nanoseconds. */
    static void writeHlog(Path file, long[]... intervals) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file); PrintStream print = new PrintStream(out, false, "US-ASCII")) {
            HistogramLogWriter writer = new HistogramLogWriter(print);
            long start = 1_796_011_200_000L;
            writer.outputLogFormatVersion();
            writer.outputStartTime(start);
            writer.setBaseTime(start);
            writer.outputLegend();
            for (int i = 0; i < intervals.length; i++) {
                Histogram h = new Histogram(3);
                for (long value : intervals[i]) {
                    h.recordValue(value);
                }
                h.setStartTimeStamp(start + i * 1000L);
                h.setEndTimeStamp(start + (i + 1) * 1000L);
                writer.outputIntervalHistogram(h);
            }
        }
    }

    /** {@code count} copies of {@code value}. */
    static long[] repeat(long value, int count) {
        long[] values = new long[count];
        java.util.Arrays.fill(values, value);
        return values;
    }
}
