package org.edgelab.experiments.runner;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.edgelab.experiments.matrix.Cell;
import org.edgelab.units.Durations;

/**
 * The progress line: cell i of n, repetition, phase, live requests/s (from the cache server's request
 * counter, once a second) and an estimate of the time left. Thread-safe: the runner and the once-a-second
 * ticker share it under its lock.
 */
final class Progress {
    private final PrintStream out;
    private final int cells;
    private final int repetitions;
    private final Duration plannedPerRepetition;
    private final ScheduledExecutorService ticker;
    private ScheduledFuture<?> watching;
    private Cell cell;
    private int repetition;
    private String phase = "";
    private long repetitionsDone;
    private long elapsedNanosDone;
    private long repetitionStart = System.nanoTime();
    private double liveRate = Double.NaN;

    Progress(PrintStream out, int cells, int repetitions, Duration measured) {
        this.out = out;
        this.cells = cells;
        this.repetitions = repetitions;
        this.plannedPerRepetition = measured.plusSeconds(2);
        this.ticker = out == null ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "edgelab-progress");
            t.setDaemon(true);
            return t;
        });
    }

    synchronized void note(String text) {
        if (out != null) {
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
        print();
    }

    /** Samples {@code requests} once a second for the live rate until {@link #unwatch()}. */
    synchronized void watch(LongSupplier requests) {
        if (ticker == null) {
            return;
        }
        long[] last = {requests.getAsLong(), System.nanoTime()};
        watching = ticker.scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            long count = requests.getAsLong();
            synchronized (Progress.this) {
                liveRate = (count - last[0]) / ((now - last[1]) / 1e9);
                print();
            }
            last[0] = count;
            last[1] = now;
        }, 1, 1, TimeUnit.SECONDS);
    }

    synchronized void unwatch() {
        if (watching != null) {
            watching.cancel(false);
            watching = null;
        }
    }

    synchronized void repetitionDone(double requestsPerSecond) {
        repetitionsDone++;
        elapsedNanosDone += System.nanoTime() - repetitionStart;
        liveRate = requestsPerSecond;
        phase = "done";
        print();
        if (out != null) {
            out.println();
        }
    }

    synchronized void close() {
        unwatch();
        if (ticker != null) {
            ticker.shutdownNow();
        }
    }

    private void print() {
        if (out == null || cell == null) {
            return;
        }
        long perRepetition = repetitionsDone == 0 ? plannedPerRepetition.toNanos() : elapsedNanosDone / repetitionsDone;
        long remaining = (long) (cells - cell.index() - 1) * repetitions + (repetitions - repetition + ("done".equals(phase) ? 0 : 1));
        out.printf(Locale.ROOT, "\rcell %d of %d, rep %d/%d, %s [%s]%s, ~%s left   ", cell.index() + 1, cells, repetition,
                repetitions, cell.id(), phase, Double.isNaN(liveRate) ? "" : String.format(Locale.ROOT, ", %.0f req/s", liveRate),
                Durations.format(Duration.ofSeconds(Math.max(0, remaining * perRepetition / 1_000_000_000L))));
        out.flush();
    }
}
