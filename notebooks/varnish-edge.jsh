// EdgeLab notebook: the varnish-edge results, walked through with the analysis API.
// Run from the repository root (classpath: the analysis jar and its dependencies), e.g.
//   jshell --class-path "$CP" -R-Dedgelab.results=results/varnish-edge notebooks/varnish-edge.jsh
// Without -Dedgelab.results it reads the hand-made fixture results used by the analysis tests.
import java.nio.file.Path;
import java.util.OptionalInt;
import org.edgelab.analysis.*;
import org.edgelab.analysis.report.*;
import tech.tablesaw.api.Table;

Path resultsDir = Path.of(System.getProperty("edgelab.results", "analysis/src/test/resources/fixtures/results/varnish-edge"));

// 1. Every row of every run: one per cell and repetition.
Table results = ResultSet.load(resultsDir);
System.out.println(results.rowCount() + " rows; dimensions " + ResultColumns.dimensions(results));

// 2. TTLB by engine and object size: percentiles from the merged .hlog histograms, never averaged.
Table bySize = Summary.by(results, "engine", "object_size_bytes");
System.out.println(MarkdownTable.render(bySize.selectColumns("engine", "object_size_bytes", "repetitions",
        "req_per_s", "req_per_s_min", "req_per_s_max", "ttlb_p50_ms", "ttlb_p99_ms", "ttlb_p999_ms", "latency_source")));

// 3. raw-log against lmdb: requests/s ratio per cell, with the spread over repetitions.
Table ratios = Ratios.between(results, "engine", "raw-log", "lmdb", "req_per_s");
System.out.println(MarkdownTable.render(ratios));

// 4. Beside the published figures of the Varnish report, scaled per core where stated.
// (jshell ends a statement at a line break when it is complete, so chains stay on one line)
OptionalInt cores = RunManifest.read(Path.of(results.stringColumn(ResultColumns.SOURCE_DIR).get(0))).map(RunManifest::cores).orElse(OptionalInt.empty());
Table published = PublishedFigures.load().beside(results, "varnish-edge", cores);
System.out.println(MarkdownTable.render(published.selectColumns("metric", "object_size", "published", "unit",
        "measured_group", "measured_scaled", "scaling")));
/exit
