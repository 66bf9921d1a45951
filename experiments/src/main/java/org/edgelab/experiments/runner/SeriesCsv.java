package org.edgelab.experiments.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.edgelab.loadgen.measure.Counters;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.measure.IntervalListener;
import org.edgelab.loadgen.measure.IntervalSnapshot;

/**
 * The per-second time series of a run folder, {@code series.csv}: a row per report interval of a measured phase (its
 * cell, repetition and phase, {@code second}: when the interval ended, seconds since the phase's start, and the
 * interval's requests, hits, misses, errors, connect errors and body bytes from loadgen's counters), and a row per
 * event (a kill, a restart) with its exact second and the event's name in {@code event}, its counters empty. A cell's
 * rows are written together once it has finished, replacing any an interrupted earlier attempt left, like
 * {@code results.csv}. Stateless; a {@link Recorder} collects one cell's rows.
 */
public final class SeriesCsv {

    /** The file's name in the run folder. */
    public static final String FILE = "series.csv";

    /** The shortest interval whose req/s counts as a window of {@link Recorder.Phase#requestRates()}. */
    static final double SHORTEST_WINDOW_S = 0.5;

    /** The columns, in order. */
    public static final List<String> COLUMNS = List.of("cell", "repetition", "phase", "second", "interval_s", "requests",
            "hits", "misses", "errors", "errors_connect", "bytes", "event");

    private SeriesCsv() {
    }

    /**
     * Writes {@code rows}, one cell's, into {@code file}: appended, after removing every row of {@code cell} the file
     * already holds (a rewrite through a temporary file then, so the file is never half written).
     */
    public static void replaceCell(Path file, String cell, List<ResultRow> rows) throws IOException {
        List<ResultRow> old = ResultsCsv.read(file);
        List<ResultRow> kept = old.stream().filter(r -> !r.get("cell").equals(cell)).toList();
        if (kept.size() == old.size()) {
            ResultsCsv.append(file, COLUMNS, rows);
            return;
        }
        List<ResultRow> all = new ArrayList<>(kept);
        all.addAll(rows);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        ResultsCsv.append(tmp, COLUMNS, all);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** A recorder of one cell's series. Thread-safe: loadgen's reporter thread adds intervals while the runner adds events. */
    public static final class Recorder {
        private final String cell;
        private final List<Phase> phases = new ArrayList<>();

        /** Collects the rows of {@code cell}. */
        public Recorder(String cell) {
            this.cell = cell;
        }

        /** A new phase of repetition {@code repetition} named {@code phase} (e.g. {@code measured}, {@code churned}). */
        public synchronized Phase phase(int repetition, String phase) {
            Phase p = new Phase(repetition, phase);
            phases.add(p);
            return p;
        }

        /** Every row so far, phase by phase, events among the intervals in time order. */
        public synchronized List<ResultRow> rows() {
            List<ResultRow> rows = new ArrayList<>();
            for (Phase p : phases) {
                rows.addAll(p.rows());
            }
            return rows;
        }

        /** Writes the rows into the run folder's {@link #FILE} (see {@link SeriesCsv#replaceCell}); nothing when there are none. */
        public void write(Path runFolder) throws IOException {
            List<ResultRow> rows = rows();
            if (!rows.isEmpty()) {
                replaceCell(runFolder.resolve(FILE), cell, rows);
            }
        }

        /** One measured phase: its intervals from loadgen and the events the runner marks in it. Thread-safe. */
        public final class Phase {
            private final int repetition;
            private final String name;
            private final Instant created = Instant.now();
            private final List<Row> rows = new ArrayList<>();
            private Instant start;
            private Counters reported = Counters.ZERO;
            private double last;
            private IntervalSnapshot lastReport;
            private Row lastRow;

            private record Row(double second, Map<String, String> values) {
            }

            private Phase(int repetition, String name) {
                this.repetition = repetition;
                this.name = name;
            }

            /** The listener that adds a row per interval; hand it to loadgen ({@code LoadConfig.onInterval}). */
            public IntervalListener listener() {
                return IntervalListener.ofSnapshots(this::interval);
            }

            /**
             * Ends the phase once loadgen's run returned: sets its start ({@code phaseStart}, loadgen's) and adds the
             * part-second after loadgen's last report as a last row (the run's {@code total} counters less those of
             * the reported intervals; a run shorter than one interval has only that row). Returns that interval; empty
             * when the run ended at a report, or when the last report came a moment after the run's end (then what
             * completed after it is folded into its row).
             */
            public synchronized Optional<IntervalSnapshot> finish(Instant phaseStart, Counters total, double elapsedSeconds) {
                this.start = phaseStart;
                Counters rest = total.minus(reported);
                if (rest.completed() == 0 && rest.totalErrors() == 0 && rest.cacheResponses() == 0) {
                    return Optional.empty();
                }
                if (elapsedSeconds <= last && lastReport != null) {
                    // the last report came a moment after the run's end: what completed after it is folded into it
                    IntervalSnapshot merged = new IntervalSnapshot(lastReport.secondsSinceStart(), lastReport.seconds(),
                            lastReport.completed() + rest.completed(), lastReport.counters().plus(rest));
                    reported = reported.plus(rest);
                    lastReport = merged;
                    Row row = new Row(merged.secondsSinceStart(), values(merged));
                    rows.set(rows.indexOf(lastRow), row);
                    lastRow = row;
                    return Optional.empty();
                }
                IntervalSnapshot tail = new IntervalSnapshot(elapsedSeconds, elapsedSeconds - last, rest.completed(), rest);
                interval(tail);
                return Optional.of(tail);
            }

            private synchronized void interval(IntervalSnapshot s) {
                // until finish gives loadgen's start, it is estimated from the first interval (the reporter's delay off)
                if (start == null) {
                    start = Instant.now().minusNanos((long) (s.secondsSinceStart() * 1e9));
                }
                reported = reported.plus(s.counters());
                last = Math.max(last, s.secondsSinceStart());
                lastReport = s;
                lastRow = new Row(s.secondsSinceStart(), values(s));
                rows.add(lastRow);
            }

            private Map<String, String> values(IntervalSnapshot s) {
                Map<String, String> v = base(s.secondsSinceStart());
                v.put("interval_s", ExperimentRunner.num(s.seconds()));
                v.put("requests", String.valueOf(s.counters().completed()));
                v.put("hits", String.valueOf(s.hits()));
                v.put("misses", String.valueOf(s.misses()));
                v.put("errors", String.valueOf(s.errors()));
                v.put("errors_connect", String.valueOf(s.counters().errors(ErrorClass.CONNECT)));
                v.put("bytes", String.valueOf(s.bodyBytes()));
                return v;
            }

            /**
             * The req/s of each interval so far that lasted at least {@value #SHORTEST_WINDOW_S} s, in order: the
             * samples of the phase's {@link WindowStats} (a last part-second would say little on its own).
             */
            public synchronized List<Double> requestRates() {
                List<Double> rates = new ArrayList<>();
                for (Row row : rows) {
                    String seconds = row.values().get("interval_s");
                    if (!Double.isNaN(row.second()) && seconds != null && !seconds.isEmpty() && Double.parseDouble(seconds) >= SHORTEST_WINDOW_S) {
                        rates.add(Long.parseLong(row.values().get("requests")) / Double.parseDouble(seconds));
                    }
                }
                return rates;
            }

            /** Marks {@code event} now. */
            public void event(String event) {
                event(event, Instant.now());
            }

            /** Marks {@code event} at {@code at}. */
            public synchronized void event(String event, Instant at) {
                rows.add(new Row(Double.NaN, eventValues(event, at)));
            }

            private Map<String, String> eventValues(String event, Instant at) {
                Map<String, String> v = base(Double.NaN);
                v.put("event", event);
                v.put("at", at.toString());
                return v;
            }

            /** Seconds since the phase's start of {@code at}. */
            public synchronized double secondsAt(Instant at) {
                return Duration.between(start != null ? start : created, at).toNanos() / 1e9;
            }

            private Map<String, String> base(double second) {
                Map<String, String> v = new LinkedHashMap<>();
                v.put("cell", cell);
                v.put("repetition", String.valueOf(repetition));
                v.put("phase", name);
                v.put("second", Double.isNaN(second) ? "" : ExperimentRunner.num(second));
                return v;
            }

            private synchronized List<ResultRow> rows() {
                List<Row> timed = new ArrayList<>();
                for (Row r : rows) {
                    if (r.values().containsKey("at")) {
                        Map<String, String> v = new LinkedHashMap<>(r.values());
                        double second = secondsAt(Instant.parse(v.remove("at")));
                        v.put("second", ExperimentRunner.num(Math.round(second * 1000) / 1000.0));
                        timed.add(new Row(second, v));
                    } else {
                        timed.add(r);
                    }
                }
                timed.sort(java.util.Comparator.comparingDouble(Row::second));
                return timed.stream().map(r -> new ResultRow(r.values())).toList();
            }
        }
    }
}
