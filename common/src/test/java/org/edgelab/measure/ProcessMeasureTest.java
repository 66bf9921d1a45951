package org.edgelab.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CpuClock} and {@link ProcessIo} read this JVM for real: CPU time grows with work, system calls grow with
 * reads, the peak RSS is the process's, and a process gone counts as nothing.
 */
class ProcessMeasureTest {

    @TempDir
    Path dir;

    @Test
    void cpuTimeGrowsWithWorkForTheProcessAndTheThreadsMeasured() {
        CpuClock clock = new CpuClock(List.of(Thread.currentThread().getId()));
        long process = CpuClock.processCpuNanos();
        long thread = clock.threadCpuNanos();
        Assumptions.assumeTrue(process >= 0 && thread >= 0, "this JVM reads no CPU time");
        long spins = 0;
        for (long end = System.nanoTime() + 50_000_000; System.nanoTime() < end; ) {
            spins++;
        }
        assertThat(spins).isPositive();
        assertThat(CpuClock.processCpuNanos()).as("process CPU after 50 ms of spinning").isGreaterThan(process);
        assertThat(clock.threadCpuNanos()).as("this thread's CPU after 50 ms of spinning").isGreaterThan(thread);
    }

    @Test
    void systemCallsAndPeakRssAreThisProcesssAndAGoneProcessCountsAsNothing() throws IOException {
        Assumptions.assumeTrue(ProcessIo.available(), "no /proc/<pid>/io here");
        long self = ProcessHandle.current().pid();
        ProcessIo.Sample before = ProcessIo.read(List.of(self));
        Path file = Files.write(dir.resolve("f"), new byte[4096]);
        for (int i = 0; i < 100; i++) {
            Files.readAllBytes(file);
        }
        ProcessIo.Sample after = ProcessIo.read(List.of(self));
        assertThat(after.minus(before).readSyscalls()).as("read system calls for 100 reads of a file").isGreaterThanOrEqualTo(100);
        assertThat(after.rssPeakBytes()).as("peak RSS of a JVM").isGreaterThan(16L << 20);

        Process gone = new ProcessBuilder("true").start();
        long pid = gone.pid();
        gone.onExit().join();
        assertThat(ProcessIo.read(List.of(pid))).as("a process gone adds nothing")
                .isEqualTo(new ProcessIo.Sample(0, 0, 0, 0, 0));
    }

    @Test
    void aFieldIsTheNumberAfterItsKeyOrZero() {
        String io = "rchar: 10\nread_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n";
        assertThat(ProcessIo.field(io, "read_bytes:")).isEqualTo(4096);
        assertThat(ProcessIo.field("VmHWM:\t  123 kB\n", "VmHWM:")).isEqualTo(123);
        assertThat(ProcessIo.field(io, "syscr:")).isZero();
    }
}
