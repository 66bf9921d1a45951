package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.edgelab.experiments.matrix.Cell;
import org.junit.jupiter.api.Test;

/** The progress line: one line per phase where nothing redraws (CI logs), a steady redrawn rate on a terminal. */
class ProgressTest {
    private static final Cell CELL = new Cell(0, "memory-100000-c10", Map.of(), null, null, 10, null, null, null);

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void withoutATerminalEachPhaseIsOneLineAndNothingIsRedrawn() {
        Progress progress = new Progress(out, 1, 1, Duration.ofSeconds(10), false);
        progress.phase(CELL, 1, "warm-up");
        progress.interval(800, 1.0);
        progress.phase(CELL, 1, "measuring");
        for (int i = 0; i < 10; i++) {
            progress.interval(1000, 1.0);
        }
        progress.repetitionDone(1000.4);
        progress.close();

        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("\r");
        assertThat(text.split("\n")).hasSize(3).satisfiesExactly(
                l -> assertThat(l).startsWith("cell 1 of 1, rep 1/1, memory-100000-c10 [warm-up], ~"),
                l -> assertThat(l).startsWith("cell 1 of 1, rep 1/1, memory-100000-c10 [measuring], ~"),
                l -> assertThat(l).isEqualTo("cell 1 of 1, rep 1/1, memory-100000-c10 [done], 1000 req/s, nothing left"));
    }

    @Test
    void onATerminalTheLineIsRedrawnWithLoadgensRatePerInterval() {
        Progress progress = new Progress(out, 2, 3, Duration.ofSeconds(10), true);
        progress.phase(CELL, 1, "measuring");
        progress.interval(500, 0.5);
        progress.interval(1200, 1.0);
        progress.note("a note");
        progress.close();

        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("\rcell 1 of 2, rep 1/3, memory-100000-c10 [measuring], 1000 req/s, ~")
                .contains("\rcell 1 of 2, rep 1/3, memory-100000-c10 [measuring], 1200 req/s, ~")
                .contains("   \nnote: a note\n");
    }

    @Test
    void noOutputNoProgress() {
        Progress progress = new Progress(null, 1, 1, Duration.ofSeconds(1));
        progress.phase(CELL, 1, "measuring");
        progress.interval(10, 1);
        progress.repetitionDone(10);
        progress.close();
        assertThat(bytes.size()).isZero();
    }
}
