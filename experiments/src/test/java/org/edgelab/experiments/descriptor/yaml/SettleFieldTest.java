package org.edgelab.experiments.descriptor.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.edgelab.experiments.descriptor.Settle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code load.settle}: a duration, {@code auto}, or {@code {auto: true, min, max, tolerance, windows, jit}}, each bad value refused at its line and column. */
class SettleFieldTest {

    @TempDir
    Path dir;

    private Settle settle(String settle, boolean quick) throws IOException {
        Path file = dir.resolve("settle.yaml");
        Files.writeString(file, "name: x\nservers: [{engine: memory}]\nload:\n  settle: " + settle + "\n"
                + "quick:\n  load:\n    settle: {max: 12s}\n");
        return DescriptorLoader.load(file.toString(), quick).load().settle();
    }

    private DescriptorException refused(String loadLines) throws IOException {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "name: x\nservers: [{engine: memory}]\nload:\n" + loadLines);
        DescriptorException e = catchThrowableOfType(() -> DescriptorLoader.load(file.toString(), false), DescriptorException.class);
        assertThat(e).as("refused:\n" + loadLines).isNotNull();
        assertThat(e.getMessage()).startsWith(file + ":" + e.line() + ":" + e.column() + ":");
        return e;
    }

    @Test
    void autoRunsUntilSteadyWithTheDefaultBoundsAndADurationStaysFixed() throws IOException {
        Settle auto = settle("auto", false);
        assertThat(auto.auto()).isTrue();
        assertThat(auto.length()).isEqualTo(Duration.ofSeconds(30));
        assertThat(auto.tolerance()).isEqualTo(0.05);
        assertThat(auto.windows()).isEqualTo(3);
        assertThat(auto.describe()).contains("5 % over 3 consecutive 1s windows, or one request per window").contains("at most 30s")
                .contains("at most 50 ms of compiling per second over those windows");
        assertThat(auto.jitMsPerSecond()).isEqualTo(Settle.DEFAULT_JIT_MS_PER_SECOND);

        Settle fixed = settle("7s", false);
        assertThat(fixed.auto()).isFalse();
        assertThat(fixed.length()).isEqualTo(Duration.ofSeconds(7));
        assertThat(settle("0s", false).isNone()).isTrue();
    }

    @Test
    void theMappingSetsEachBoundAndAQuickBlockMergesIntoIt() throws IOException {
        Settle full = settle("{auto: true, max: 40s, tolerance: 2.5%, windows: 4}", false);
        assertThat(full).isEqualTo(Settle.steady(Duration.ofSeconds(40), 0.025, 4));
        assertThat(settle("{auto: true, tolerance: 0.1}", false)).isEqualTo(Settle.steady(Duration.ofSeconds(30), 0.1, 3));
        // --quick lays {max: 12s} over the mapping, keeping the rest
        assertThat(settle("{auto: true, max: 40s, tolerance: 2.5%, windows: 4}", true))
                .isEqualTo(Settle.steady(Duration.ofSeconds(12), 0.025, 4));
        // the JIT bound: another figure, or off (req/s alone)
        assertThat(settle("{auto: true, jit: 20ms/s}", false)).isEqualTo(Settle.steady(Duration.ofSeconds(30), 0.05, 3, 20));
        // a least length: steady or not, it runs that long first
        Settle least = settle("{auto: true, min: 35s, max: 60s}", false);
        assertThat(least).isEqualTo(Settle.steady(Duration.ofSeconds(60), 0.05, 3, Settle.DEFAULT_JIT_MS_PER_SECOND,
                Duration.ofSeconds(35)));
        assertThat(least.describe()).startsWith("the same load unrecorded for at least 35s and then until its req/s is steady");
        assertThat(settle("auto", false).min()).isZero();
        Settle off = settle("{auto: true, jit: off}", false);
        assertThat(off.watchesJit()).isFalse();
        assertThat(off.describe()).doesNotContain("JIT");
    }

    @Test
    void eachBadValueIsRefusedAtItsOwnLineAndColumn() throws IOException {
        DescriptorException word = refused("  settle: soon\n");
        assertThat(word.line()).isEqualTo(4);
        assertThat(word.column()).as("the field's key").isEqualTo(3);
        assertThat(word.field()).isEqualTo("load.settle");
        assertThat(word.getMessage()).contains("auto (run until req/s is steady and a JVM's JIT is quiet)").contains("10s");

        DescriptorException max = refused("  settle:\n    auto: true\n    max: 30\n");
        assertThat(max.line()).isEqualTo(6);
        assertThat(max.column()).isEqualTo(5);
        assertThat(max.field()).isEqualTo("load.settle.max");
        assertThat(max.getMessage()).contains("unit");

        DescriptorException tolerance = refused("  settle: {auto: true, tolerance: 5}\n");
        assertThat(tolerance.line()).isEqualTo(4);
        assertThat(tolerance.column()).isEqualTo(24);
        assertThat(tolerance.field()).isEqualTo("load.settle.tolerance");
        assertThat(tolerance.getMessage()).contains("0.05").contains("5%");

        DescriptorException windows = refused("  settle:\n    auto: true\n    windows: 1\n");
        assertThat(windows.line()).isEqualTo(6);
        assertThat(windows.field()).isEqualTo("load.settle.windows");
        assertThat(windows.getMessage()).contains("at least 2");

        DescriptorException tooShort = refused("  settle: {auto: true, max: 2s}\n");
        assertThat(tooShort.field()).isEqualTo("load.settle.max");
        assertThat(tooShort.getMessage()).contains("shorter than the 3 windows");

        DescriptorException unknown = refused("  settle:\n    auto: true\n    least: 5s\n");
        assertThat(unknown.line()).isEqualTo(6);
        assertThat(unknown.field()).isEqualTo("load.settle.least");
        assertThat(unknown.getMessage()).contains("known fields here: auto, min, max, tolerance, windows, jit");

        DescriptorException minOverMax = refused("  settle:\n    auto: true\n    max: 20s\n    min: 30s\n");
        assertThat(minOverMax.line()).isEqualTo(7);
        assertThat(minOverMax.field()).isEqualTo("load.settle.min");
        assertThat(minOverMax.getMessage()).contains("min 30s is longer than the settle's max 20s");

        DescriptorException jit = refused("  settle:\n    auto: true\n    jit: 50\n");
        assertThat(jit.line()).isEqualTo(6);
        assertThat(jit.field()).isEqualTo("load.settle.jit");
        assertThat(jit.getMessage()).contains("such as 50ms/s, or off").contains("got '50'");

        DescriptorException notAuto = refused("  settle:\n    auto: false\n    max: 5s\n");
        assertThat(notAuto.line()).isEqualTo(5);
        assertThat(notAuto.field()).isEqualTo("load.settle.auto");
        assertThat(notAuto.getMessage()).contains("for a fixed settle write a duration");

        DescriptorException list = refused("  settle: [5s]\n");
        assertThat(list.line()).isEqualTo(4);
        assertThat(list.getMessage()).contains("got a list");
    }
}
