package org.edgelab.analysis.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;

import org.edgelab.analysis.PublishedFigures;
import org.edgelab.analysis.ResultColumns;
import org.edgelab.analysis.ResultFormatException;
import org.edgelab.analysis.ResultSet;
import org.edgelab.analysis.RunManifest;
import org.edgelab.analysis.Summary;
import org.edgelab.analysis.report.HtmlReport;
import org.edgelab.analysis.report.MarkdownTable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tech.tablesaw.api.Table;

/**
 * {@code report <result dirs...> [--by dims] [--out DIR]}: prints the summary table and writes summary.csv,
 * summary.md (summary and published-against-measured tables) and report.html, by default into {@code report/} inside
 * the one result folder given.
 *
 * <p>Thread-safety: one instance per command-line invocation.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Summarise result folders: print the main table, write summary.csv, summary.md and report.html.")
public final class ReportCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RESULTS", description = "Run folders, or folders above them (e.g. results/).")
    private List<Path> results = new ArrayList<>();

    @Option(names = "--by", split = ",", paramLabel = "DIM",
            description = "Dimensions to group by (default: experiment and every dimension that varies).")
    private List<String> by = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output folder (default: report/ inside the one RESULTS folder given; ./report for several).")
    private Path out;

    @Option(names = "--baseline", paramLabel = "BUILD",
            description = "Server build the headline ratios are taken against (default: the first peer, else the first build).")
    private String baseline;

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        Table table;
        Table summary;
        try {
            table = ResultSet.load(results.toArray(Path[]::new));
            List<String> dimensions = by.isEmpty() ? defaultDimensions(table) : by;
            summary = Summary.by(table, dimensions.toArray(String[]::new));
            checkBaseline(table);
        } catch (ResultFormatException | IllegalArgumentException e) {
            stderr.println("report: " + e.getMessage());
            return 2;
        }
        Table published = publishedBesideMeasured(table);
        Path out = this.out != null ? this.out : defaultOut(results);
        Files.createDirectories(out);
        summary.write().csv(out.resolve("summary.csv").toFile());
        String markdown = "## Summary\n\n" + MarkdownTable.render(summary)
                + (published.isEmpty() ? "" : "\n## Published and measured\n\n" + MarkdownTable.render(published));
        Files.writeString(out.resolve("summary.md"), markdown, StandardCharsets.UTF_8);
        HtmlReport.write(out.resolve("report.html"), "EdgeLab report", table, summary, published, baseline);
        stdout.print(MarkdownTable.render(summary));
        stdout.println();
        stdout.println("wrote " + out.resolve("summary.csv") + ", " + out.resolve("summary.md") + ", " + out.resolve("report.html"));
        stdout.flush();
        return 0;
    }

    /**
     * Where the report goes without {@code --out}: beside the results when one folder is given ({@code RUN/report/},
     * or the folder of a {@code results.csv} given as a file), {@code ./report} for several.
     */
    static Path defaultOut(List<Path> results) {
        if (results.size() != 1) {
            return Path.of("report");
        }
        Path only = results.get(0);
        Path folder = Files.isRegularFile(only) ? only.toAbsolutePath().getParent() : only;
        return folder.resolve("report");
    }

    private void checkBaseline(Table table) {
        if (baseline == null) {
            return;
        }
        List<String> builds = new ArrayList<>();
        for (String column : List.of("server", "engine")) {
            if (table.containsColumn(column)) {
                builds.addAll(table.stringColumn(column).unique().asList());
                break;
            }
        }
        if (!builds.contains(baseline)) {
            throw new IllegalArgumentException("--baseline " + baseline + " is not a build of these results; builds are " + builds);
        }
    }

    /** "experiment" plus every dimension with more than one value. */
    static List<String> defaultDimensions(Table table) {
        List<String> dimensions = new ArrayList<>();
        for (String dimension : ResultColumns.dimensions(table)) {
            if (dimension.equals("experiment") || table.stringColumn(dimension).countUnique() > 1) {
                dimensions.add(dimension);
            }
        }
        return dimensions;
    }

    private static Table publishedBesideMeasured(Table table) {
        PublishedFigures figures = PublishedFigures.load();
        Table all = null;
        for (String experiment : table.stringColumn("experiment").unique().asList()) {
            Table mine = table.where(table.stringColumn("experiment").isEqualTo(experiment));
            Table beside = figures.beside(mine, experiment, cores(mine));
            all = all == null ? beside : all.append(beside);
        }
        return all == null ? Table.create("published") : all;
    }

    /** The cores recorded in the manifests of the experiment's run folders, when all agree. */
    private static OptionalInt cores(Table rows) {
        OptionalInt cores = OptionalInt.empty();
        for (String dir : rows.stringColumn(ResultColumns.SOURCE_DIR).unique().asList()) {
            Optional<RunManifest> manifest = RunManifest.read(Path.of(dir));
            OptionalInt these = manifest.map(RunManifest::cores).orElse(OptionalInt.empty());
            if (these.isEmpty() || (cores.isPresent() && cores.getAsInt() != these.getAsInt())) {
                return OptionalInt.empty();
            }
            cores = these;
        }
        return cores;
    }
}
