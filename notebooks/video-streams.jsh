// EdgeLab notebook: the video-streams results (report C: how many ~70 MB/s playback streams one node sustains
// before the look-ahead buffer drains), walked through with the analysis API.
// Run from the repository root (classpath: the analysis jar and its dependencies), e.g.
//   jshell --class-path "$CP" -R-Dedgelab.results=results/video-streams notebooks/video-streams.jsh
// Without -Dedgelab.results it reads the hand-made fixture results used by the analysis tests.
// scripts/run-notebooks.sh runs every notebook this way and fails on any error.
import java.nio.file.Path;
import java.util.OptionalInt;
import org.edgelab.analysis.*;
import org.edgelab.analysis.report.*;
import tech.tablesaw.api.Table;

Path resultsDir = Path.of(System.getProperty("edgelab.results", "analysis/src/test/resources/fixtures/results/video-streams"));

// 1. One row per server build and repetition: streams sustained, stream bitrate, frame latency p99, smallest look-ahead,
//    and what broke one step higher.
Table results = ResultSet.load(resultsDir);
System.out.println(results.rowCount() + " rows; dimensions " + ResultColumns.dimensions(results));

// 2. Per server build: streams sustained (median, fewest, most), egress, the worst repetition's frame latency p99
//    (percentiles are not averaged) and the smallest look-ahead seen (the report's health line is 300 frames).
Table byServer = Summary.by(results, "server");
System.out.println(MarkdownTable.render(byServer.selectColumns("server", "repetitions", "streams_sustained", "streams_sustained_min",
        "streams_sustained_max", "stream_bitrate_mbps", "stream_egress_gbps", "frame_latency_p99_ms_worst", "min_lookahead_frames",
        "dropped_frames", Summary.STREAMS_NOTE)));

// What stopped each repetition's search one step higher (the runner's 'limit' column; blank when the search hit its cap).
System.out.println(MarkdownTable.render(results.selectColumns("server", "repetition", "streams_sustained", "streams_first_unhealthy", "limit")));

// 3. How many more streams one build sustains than the other (OneFS 9.5 gave 40 % more than 9.4), with the spread.
java.util.List<String> servers = byServer.stringColumn("server").asList();
Table ratio = Ratios.between(results, "server", servers.get(servers.size() - 1), servers.get(0), "streams_sustained");
System.out.println(MarkdownTable.render(ratio));

// 4. Healthy builds: a look-ahead that never fell under 300 frames.
Table healthy = byServer.where(byServer.doubleColumn("min_lookahead_frames").isGreaterThanOrEqualTo(300));
System.out.println("healthy look-ahead: " + healthy.stringColumn("server").asList());

// 5. Beside the published figures of report C: streams are scaled per Gbps of link and per stream bitrate.
OptionalInt cores = RunManifest.read(Path.of(results.stringColumn(ResultColumns.SOURCE_DIR).get(0))).map(RunManifest::cores).orElse(OptionalInt.empty());
Table published = PublishedFigures.load().beside(results, "video-streams", cores);
System.out.println(MarkdownTable.render(published.selectColumns("system", "metric", "published", "unit", "measured_group",
        "measured", "scaling", "measured_scaled", "scaled_over_published")));

// 6. The plots the HTML report draws for these results (edgelab report writes them into report.html).
for (HtmlReport.Plot plot : HtmlReport.plots(results)) System.out.println(plot.id() + ": " + (plot.drawn() ? plot.series() + " series, " + plot.points() + " points" : plot.note()));
/exit
