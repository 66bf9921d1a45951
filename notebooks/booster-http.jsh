// EdgeLab notebook: the booster-http results (report B: whole pieces and byte ranges over an emulated link
// with 40 ms latency, a no-cache server as the baseline), walked through with the analysis API.
// Run from the repository root (classpath: the analysis jar and its dependencies), e.g.
//   jshell --class-path "$CP" -R-Dedgelab.results=results/booster-http notebooks/booster-http.jsh
// Without -Dedgelab.results it reads the hand-made fixture results used by the analysis tests.
// scripts/run-notebooks.sh runs every notebook this way and fails on any error.
import java.nio.file.Path;
import java.util.OptionalInt;
import org.edgelab.analysis.*;
import org.edgelab.analysis.report.*;
import tech.tablesaw.api.Table;

Path resultsDir = Path.of(System.getProperty("edgelab.results", "analysis/src/test/resources/fixtures/results/booster-http"));

// 1. Every row of every run: one per server, range size, concurrency, link and repetition.
Table results = ResultSet.load(resultsDir);
System.out.println(results.rowCount() + " rows; dimensions " + ResultColumns.dimensions(results));

// 2. Success rate (1 - errors / requests) and latency per server, range size (0 = whole piece) and concurrency;
//    TTFB and TTLB percentiles and maxima come from the merged .hlog histograms, never averaged.
Table byCell = Summary.by(results, "server", "range_size_bytes", "connections", "link");
System.out.println(MarkdownTable.render(byCell.selectColumns("server", "range_size_bytes", "connections", "link", "repetitions",
        "success_rate", "ttfb_p50_ms", "ttlb_p50_ms", "ttlb_p99_ms", "ttlb_max_ms", "goodput_gbps")));

// 3. The cache against the no-cache baseline: goodput ratio per cell, with the spread over repetitions.
Table ratios = Ratios.between(results, "server", "memory", "no-cache", "goodput_bps");
System.out.println(MarkdownTable.render(ratios));

// 4. Where the success rate falls: the cells below 95 % (the report saw 40 % against 60 % at 1000 connections).
Table failing = byCell.where(byCell.doubleColumn("success_rate").isLessThan(0.95));
System.out.println(failing.rowCount() + " cells below 95 % success:");
System.out.println(MarkdownTable.render(failing.selectColumns("server", "range_size_bytes", "connections", "success_rate")));

// 5. Beside the published figures of report B (latencies and shares are compared unscaled; the scaling column says so).
OptionalInt cores = RunManifest.read(Path.of(results.stringColumn(ResultColumns.SOURCE_DIR).get(0))).map(RunManifest::cores).orElse(OptionalInt.empty());
Table published = PublishedFigures.load().beside(results, "booster-http", cores);
System.out.println(MarkdownTable.render(published.selectColumns("system", "metric", "object_size", "published", "unit",
        "measured_group", "measured", "scaling")));

// 6. The plots the HTML report draws for these results (edgelab report writes them into report.html).
for (HtmlReport.Plot plot : HtmlReport.plots(results)) System.out.println(plot.id() + ": " + (plot.drawn() ? plot.series() + " series, " + plot.points() + " points" : plot.note()));
/exit
