package org.edgelab.experiments.process.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.edgelab.experiments.process.ManagedProcess;
import org.edgelab.measure.ProcessIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real memory cgroups: a process under a small limit, its peak, page cache and device I/O read back, removal and the sweep. */
class CgroupsTest {

    private static final long LIMIT = 64L << 20;

    @TempDir
    Path dir;

    @Test
    void aProcessStartedThroughTheWrapperRunsUnderTheLimitAndItsPeakAndDeviceIoAreReadBack() throws Exception {
        CgroupRequirement.require();
        Path file = dir.resolve("big");
        Path done = dir.resolve("done");
        // writes 128 MB (twice the limit), reads it back, and waits: its page cache cannot hold the file, so the read
        // goes to the device; dd and cat are reaped by the shell, whose /proc/<pid>/io then includes theirs
        String script = "dd if=/dev/zero of=" + file + " bs=1M count=128 conv=fsync status=none && cat " + file
                + " > /dev/null && touch " + done + " && exec sleep 60";
        try (Cgroup cgroup = Cgroups.create("test-limit", OptionalLong.of(LIMIT));
             ManagedProcess p = ManagedProcess.start("limited", cgroup.wrap(List.of("/bin/sh", "-c", script)), dir)) {
            assertThat(cgroup.limitBytes()).hasValue(LIMIT);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Files.exists(done)) {
                assertThat(p.alive()).as("the process is alive; log: %s", p.tail(5)).isTrue();
                assertThat(System.nanoTime()).as("the script finishes within 60 s").isLessThan(deadline);
                Thread.sleep(50);
            }
            // the done file appears while touch, its writer, may still be in the cgroup (pids [shell, touch] was
            // read): a child that finished leaves it within moments, so the cgroup is read until only the shell is left
            while (cgroup.pids().size() > 1 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(cgroup.pids()).containsExactly(p.pid());
            CgroupMemory memory = cgroup.memory();
            assertThat(memory.peakBytes()).as("peak").isBetween(8L << 20, LIMIT);
            assertThat(memory.pageCacheBytes()).as("page cache").isBetween(0L, LIMIT);
            ProcessIo.Sample io = ProcessIo.read(cgroup.pids());
            assertThat(io.writeBytes()).as("device bytes written").isGreaterThanOrEqualTo(128L << 20);
            assertThat(io.readBytes()).as("device bytes read: the file did not fit the cgroup's page cache")
                    .isGreaterThanOrEqualTo(32L << 20);
            assertThat(io.writeSyscalls()).isGreaterThanOrEqualTo(128);
            assertThat(io.rssPeakBytes()).isPositive();
        }
    }

    @Test
    void closeKillsWhatIsLeftAndRemovesTheCgroup() throws Exception {
        CgroupRequirement.require();
        Cgroup cgroup = Cgroups.create("test-close", OptionalLong.empty());
        assertThat(cgroup.limitBytes()).isEmpty();
        Process sleeper = new ProcessBuilder(cgroup.wrap(List.of("sleep", "60"))).start();
        awaitMember(cgroup, sleeper.pid());
        cgroup.close();
        assertThat(sleeper.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(cgroup.path()).doesNotExist();
        cgroup.close(); // idempotent
    }

    @Test
    void aRunningProcessJoinsAndTheWrapperFailsClearlyWhenItCannotJoin() throws Exception {
        CgroupRequirement.require();
        try (Cgroup cgroup = Cgroups.create("test-join", OptionalLong.empty())) {
            Process sleeper = new ProcessBuilder("sleep", "60").start();
            try {
                cgroup.join(sleeper.pid());
                assertThat(cgroup.pids()).containsExactly(sleeper.pid());
            } finally {
                sleeper.destroyForcibly().waitFor();
            }
        }
        Cgroup gone = Cgroups.create("test-gone", OptionalLong.empty());
        gone.close();
        ManagedProcess p = ManagedProcess.start("nojoin", gone.wrap(List.of("true")), dir);
        assertThat(p.awaitExit(Duration.ofSeconds(10))).hasValue(125);
        assertThat(p.tail(5)).contains("cannot join the cgroup");
        p.close();
    }

    @Test
    void theSweepRemovesTheCgroupsOfARunnerThatIsGoneAndKillsTheirProcesses() throws Exception {
        CgroupHierarchy hierarchy = CgroupRequirement.require();
        Cgroup mine = Cgroups.create("test-alive", OptionalLong.empty()); // (creation sweeps too: made before the leftover)
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Path leftover = hierarchy.parent().resolve(Cgroups.PREFIX + dead.pid() + "-1-leftover");
        Files.createDirectory(leftover);
        Process orphan = new ProcessBuilder("/bin/sh", "-c", "echo $$ > " + leftover.resolve("cgroup.procs") + " && exec sleep 60").start();
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Files.readString(leftover.resolve("cgroup.procs")).isBlank() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            // Not how many this sweep removed: another JVM's first cgroup on this machine (a second build) sweeps too,
            // and may take the leftover first or leave one of its own tests' for this sweep.
            Cgroups.sweep(hierarchy);
            assertThat(leftover).doesNotExist();
            assertThat(orphan.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(mine.path()).as("a live runner's cgroup stays").exists();
        } finally {
            mine.close();
            orphan.destroyForcibly();
            if (Files.exists(leftover)) {
                Files.delete(leftover);
            }
        }
    }

    @Test
    void ownCgroupIsReadForV1ControllersAndTheV2Line() {
        List<String> lines = List.of("9:name=systemd:/", "4:memory,hugetlb:/process_api/abc", "0::/user.slice/x.scope");
        assertThat(Cgroups.ownPath(lines, "memory")).isEqualTo("/process_api/abc");
        assertThat(Cgroups.ownPath(lines, "")).isEqualTo("/user.slice/x.scope");
        assertThat(Cgroups.ownPath(List.of("0::/"), "memory")).isNull();
    }

    private static void awaitMember(Cgroup cgroup, long pid) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!cgroup.pids().contains(pid)) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
