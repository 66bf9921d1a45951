package org.edgelab.experiments.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessCpuTest {

    @TempDir
    Path dir;

    @Test
    void parsesUserSystemAndReapedChildrensTicksOfAStatLine() {
        // a command name with spaces and parentheses, as /proc prints it; utime 150, stime 50, cutime 20, cstime 30 ticks
        String stat = "4242 (java (edge) 1) S 1 4242 4242 0 -1 4194560 1000 0 0 0 150 50 20 30 20 0 25 0 1234 5678 90 "
                + "18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 17 1 0 0 0 0 0";
        assertThat(ProcessCpu.parseStat(stat)).isCloseTo(2.5, Offset.offset(1e-9));
    }

    @Test
    void aLineWithoutACommandIsRejected() {
        assertThatThrownBy(() -> ProcessCpu.parseStat("not a stat line")).hasMessageContaining("not a /proc/<pid>/stat line");
    }

    @Test
    void thisProcessHasUsedSomeCpuAndAGoneProcessCountsAsNone() throws Exception {
        assumeThat(ProcessCpu.available()).as("/proc is readable").isTrue();
        assertThat(ProcessCpu.treeSeconds(ProcessHandle.current().pid())).isPositive();
        assertThat(ProcessCpu.seconds(Long.MAX_VALUE / 2)).isZero();
    }

    @Test
    void aBusyGrandchildShowsUpInItsParentsTree() throws Exception {
        assumeThat(ProcessCpu.available()).as("/proc is readable").isTrue();
        // the parent shell only waits; the CPU is burnt by its child, so only the tree sum sees it
        try (ManagedProcess parent = ManagedProcess.start("busy", List.of("sh", "-c",
                "while :; do :; done & echo child $!; wait"), dir)) {
            long child = Long.parseLong(parent.awaitLogLine(Pattern.compile("child (\\d+)"), java.time.Duration.ofSeconds(10)));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (ProcessCpu.seconds(child) < 0.05 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            double own = ProcessCpu.seconds(parent.pid());
            double tree = parent.cpuSeconds();
            assertThat(ProcessCpu.seconds(child)).isGreaterThanOrEqualTo(0.05);
            assertThat(tree).isGreaterThanOrEqualTo(own + 0.05);
        }
    }
}
