package org.edgelab.experiments.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.edgelab.link.kernel.ProcessEnd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManagedProcessTest {

    @TempDir
    Path dir;

    @Test
    void awaitLogLineReturnsTheFirstGroupOfTheMatchingLine() throws Exception {
        try (ManagedProcess p = ManagedProcess.start("printer", List.of("sh", "-c", "echo warming up; sleep 0.2; echo listening on 4711; sleep 30"), dir)) {
            assertThat(p.awaitLogLine(Pattern.compile("listening on (\\d+)"), Duration.ofSeconds(10))).isEqualTo("4711");
            assertThat(p.log()).isEqualTo(dir.resolve("printer.log"));
            assertThat(p.alive()).isTrue();
            assertThat(p.exitStatus()).isEmpty();
        }
    }

    @Test
    void awaitLogLineFailsFastWithTheLogTailWhenTheProcessDies() throws Exception {
        try (ManagedProcess p = ManagedProcess.start("doomed", List.of("sh", "-c", "echo starting; echo 'boom: no such engine' >&2; exit 3"), dir)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> p.awaitLogLine(Pattern.compile("listening on (\\d+)"), Duration.ofSeconds(60)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("doomed exited with status 3")
                    .hasMessageContaining("starting")
                    .hasMessageContaining("boom: no such engine");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(p.exitStatus()).hasValue(3);
        }
    }

    @Test
    void awaitLogLineFailsFastWithItsLogWhenACompanionStartingBesideItDies() throws Exception {
        try (ManagedProcess slow = ManagedProcess.start("slow", List.of("sh", "-c", "echo starting; sleep 30"), dir);
             ManagedProcess doomed = ManagedProcess.start("doomed", List.of("sh", "-c", "echo 'boom: no such engine' >&2; exit 3"), dir)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> slow.awaitLogLine(Pattern.compile("listening on (\\d+)"), Duration.ofSeconds(60), List.of(doomed)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("doomed exited with status 3 while slow was starting")
                    .hasMessageContaining("doomed.log")
                    .hasMessageContaining("boom: no such engine");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(slow.alive()).isTrue();
        }
    }

    @Test
    void awaitLogLineGivesUpAfterTheTimeout() throws Exception {
        try (ManagedProcess p = ManagedProcess.start("silent", List.of("sh", "-c", "echo nothing useful; sleep 30"), dir)) {
            assertThatThrownBy(() -> p.awaitLogLine(Pattern.compile("listening on (\\d+)"), Duration.ofMillis(300)))
                    .hasMessageContaining("silent did not print a line matching")
                    .hasMessageContaining("nothing useful");
        }
    }

    @Test
    void awaitHttpFailsWithTheLogTailWhenNothingListens() throws Exception {
        int freePort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            freePort = s.getLocalPort();
        }
        try (ManagedProcess p = ManagedProcess.start("deaf", List.of("sh", "-c", "echo not a server; sleep 30"), dir)) {
            assertThatThrownBy(() -> p.awaitHttp(URI.create("http://127.0.0.1:" + freePort + "/"), Duration.ofMillis(500)))
                    .hasMessageContaining("deaf did not answer http://127.0.0.1:" + freePort)
                    .hasMessageContaining("not a server");
        }
    }

    @Test
    void closeStopsTheProcessAndItsGrandchildAndIsIdempotent() throws Exception {
        ManagedProcess p = ManagedProcess.start("parent", List.of("sh", "-c", "sleep 300 & echo grandchild $!; wait"), dir);
        long grandchild = Long.parseLong(p.awaitLogLine(Pattern.compile("grandchild (\\d+)"), Duration.ofSeconds(10)));
        Optional<ProcessHandle> handle = ProcessHandle.of(grandchild);
        assertThat(handle).isPresent();
        assertThat(handle.get().isAlive()).isTrue();

        p.close();

        assertThat(p.alive()).isFalse();
        assertThat(p.exitStatus()).isPresent();
        // the grandchild is an orphan, reaped by whatever adopts it, if ever (a container's PID 1 may never): a zombie has ended
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!ProcessEnd.ended(grandchild) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ProcessEnd.ended(grandchild)).as("grandchild %d ended", grandchild).isTrue();
        p.close();
    }

    @Test
    void closeAllStopsEveryProcessInAboutTheTimeOfTheSlowest() throws Exception {
        // each takes 1.5 s to exit after SIGTERM: one after the other would take 3 s
        String slowToStop = "trap 'sleep 1.5; exit 0' TERM; echo ready; while :; do sleep 0.1; done";
        ManagedProcess a = ManagedProcess.start("a", List.of("sh", "-c", slowToStop), dir);
        ManagedProcess b = ManagedProcess.start("b", List.of("sh", "-c", slowToStop), dir);
        a.awaitLogLine(Pattern.compile("ready"), Duration.ofSeconds(10));
        b.awaitLogLine(Pattern.compile("ready"), Duration.ofSeconds(10));
        long start = System.nanoTime();

        ManagedProcess.closeAll(List.of(a, b));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(1400), Duration.ofMillis(2700));
        assertThat(a.exitStatus()).hasValue(0);
        assertThat(b.exitStatus()).hasValue(0);
        ManagedProcess.closeAll(List.of(a, b));
    }
}
