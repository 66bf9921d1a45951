package org.edgelab.experiments.runner;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.units.Durations;

/**
 * The progress of a run: cell i of n, repetition, phase, the live requests/s and an estimate of the time left. The
 * rate comes from the load generator's own completions per report interval ({@link #interval}), the same for every
 * target, so it is steady whatever the server's counters do. On a terminal one line is redrawn in place ({@code \r})
 * at each interval; otherwise (a CI log, a file) one line is printed per phase and per finished repetition, and no
 * redraw at all. Thread-safe: the runner and loadgen's reporter thread share it under its lock.
 */
final class Progress {
    private final PrintStream out;
    private final boolean redraw;
    private final int cells;
    private final int repetitions;
    private final Duration plannedPerRepetition;
    private Cell cell;
    private int repetition;
    private String phase = "";
    private long repetitionsDone;
    private long elapsedNanosDone;
    private long repetitionStart = System.nanoTime();
    private double liveRate = Double.NaN;
    private boolean lineOpen;

    /** Progress on {@code out} (null: none), redrawn in place when {@code out} is a terminal's ({@link #isTerminal()}). */
    Progress(PrintStream out, int cells, int repetitions, Duration measured) {
        this(out, cells, repetitions, measured, out != null && isTerminal());
    }

    Progress(PrintStream out, int cells, int repetitions, Duration measured, boolean redraw) {
        this.out = out;
        this.redraw = redraw;
        this.cells = cells;
        this.repetitions = repetitions;
        this.plannedPerRepetition = measured.plusSeconds(2);
    }

    /**
     * Whether standard output and input are an interactive terminal (Java 17 cannot ask about standard error alone)
     * and nothing says otherwise: {@code TERM=dumb} or {@code CI} set, as CI services do.
     */
    static boolean isTerminal() {
        String ci = System.getenv("CI");
        return System.console() != null && !"dumb".equals(System.getenv("TERM")) && (ci == null || ci.isEmpty() || ci.equals("false"));
    }

    synchronized void note(String text) {
        if (out != null) {
            endLine();
            out.println("note: " + text);
        }
    }

    synchronized void phase(Cell cell, int repetition, String phase) {
        if (this.cell != cell || this.repetition != repetition) {
            repetitionStart = System.nanoTime();
        }
        this.cell = cell;
        this.repetition = repetition;
        this.phase = phase;
        this.liveRate = Double.NaN;
        print(true);
    }

    /** loadgen's completions in its last report interval: the live rate, redrawn on a terminal. */
    synchronized void interval(long completed, double seconds) {
        if (seconds > 0) {
            liveRate = completed / seconds;
            print(false);
        }
    }

    synchronized void repetitionDone(double requestsPerSecond) {
        repetitionsDone++;
        elapsedNanosDone += System.nanoTime() - repetitionStart;
        liveRate = requestsPerSecond;
        phase = "done";
        print(true);
        endLine();
    }

    synchronized void close() {
        endLine();
    }

    /** Prints the line: redrawn on a terminal; elsewhere only at a phase change ({@code milestone}), once each. */
    private void print(boolean milestone) {
        if (out == null || cell == null || (!redraw && !milestone)) {
            return;
        }
        long perRepetition = repetitionsDone == 0 ? plannedPerRepetition.toNanos() : elapsedNanosDone / repetitionsDone;
        long remaining = (long) (cells - cell.index() - 1) * repetitions + (repetitions - repetition + ("done".equals(phase) ? 0 : 1));
        long secondsLeft = Math.max(0, remaining * perRepetition / 1_000_000_000L);
        String line = String.format(Locale.ROOT, "cell %d of %d, rep %d/%d, %s [%s]%s%s", cell.index() + 1, cells,
                repetition, repetitions, cell.id(), phase,
                Double.isNaN(liveRate) ? "" : String.format(Locale.ROOT, ", %.0f req/s", liveRate),
                remaining == 0 ? ", nothing left" : ", ~" + Durations.format(Duration.ofSeconds(Math.max(1, secondsLeft))) + " left");
        if (redraw) {
            out.print("\r" + line + "   ");
            lineOpen = true;
        } else {
            out.println(line);
        }
        out.flush();
    }

    private void endLine() {
        if (lineOpen) {
            out.println();
            lineOpen = false;
        }
    }
}
