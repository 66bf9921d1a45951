package org.edgelab.loadgen.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

import org.edgelab.loadgen.LoadResult;

/** Writes a run as CSV: one header line and one row (RFC 4180 quoting); stateless and thread-safe. */
public final class CsvReport {
    private CsvReport() {
    }

    /** Writes {@code result} to {@code file}, replacing it. */
    public static void write(LoadResult result, Path file) throws IOException {
        Map<String, Object> figures = ResultFigures.of(result);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(String.join(",", figures.keySet()));
            w.write('\n');
            w.write(figures.values().stream().map(CsvReport::cell).collect(Collectors.joining(",")));
            w.write('\n');
        }
    }

    private static String cell(Object v) {
        if (v == null) {
            return "";
        }
        String s = v.toString();
        if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }
}
