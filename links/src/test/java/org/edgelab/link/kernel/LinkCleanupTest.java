package org.edgelab.link.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.edgelab.link.LinkShape;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Namespaces, veth pairs, qdiscs, the TUN device and the delay line go after a close, a failure, an interrupt, a signal and a kill. */
class LinkCleanupTest {
    private static final LinkShape SHAPE = new LinkShape(100_000_000L, Duration.ofMillis(5));

    @BeforeEach
    void needsRoot() {
        RootRequirement.assumeKernelLinks();
    }

    @Test
    void closeRemovesNamespacesAndTheDelayLine() throws Exception {
        KernelLink link = KernelLink.open(SHAPE);
        List<String> names = link.fabric().namespaces();
        long delayLine = link.fabric().delayLinePid();
        assertThat(names).hasSize(3).allSatisfy(n -> assertThat(NetworkNamespace.exists(n)).isTrue());
        link.close();
        assertGone(names, delayLine);
        link.close(); // idempotent
    }

    @Test
    void aFailureWhileOpeningRemovesWhatWasMade() {
        for (String step : List.of("hub", "node client", "node server", "delay line", "routes")) {
            List<String> made = new ArrayList<>();
            assertThatThrownBy(() -> Fabric.builder()
                    .node(new Fabric.NodeSpec("client", 1_000_000, 0, 1 << 20))
                    .node(new Fabric.NodeSpec("server", 1_000_000, 0, 1 << 20))
                    .delay("client", "server", Duration.ofMillis(1))
                    .afterStep(s -> {
                        made.clear();
                        made.addAll(NetworkNamespace.list().stream().filter(n -> n.startsWith(Leftovers.PREFIX + ProcessHandle.current().pid() + "-")).toList());
                        if (s.equals(step)) {
                            throw new IllegalStateException("injected failure after " + s);
                        }
                    })
                    .open()).hasMessageContaining("injected failure after " + step);
            assertThat(made).as("namespaces existed at step " + step).isNotEmpty();
            assertThat(made).allSatisfy(n -> assertThat(NetworkNamespace.exists(n)).as(n + " after a failure at " + step).isFalse());
        }
    }

    @Test
    void anInterruptedRunClosesItsLink() throws Exception {
        AtomicReference<List<String>> names = new AtomicReference<>();
        AtomicReference<Long> pid = new AtomicReference<>();
        Thread run = new Thread(() -> {
            try (KernelLink link = KernelLink.open(SHAPE)) {
                names.set(link.fabric().namespaces());
                pid.set(link.fabric().delayLinePid());
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                // the run was interrupted: try-with-resources has closed the link
            }
        });
        run.start();
        while (names.get() == null && run.isAlive()) {
            Thread.sleep(20);
        }
        run.interrupt();
        run.join(30_000);
        assertThat(run.isAlive()).isFalse();
        assertGone(names.get(), pid.get());
    }

    @Test
    void anInterruptedCallerCancelsItsTaskOnTheSideAndTheSideStaysUsable() throws Exception {
        try (KernelLink link = KernelLink.open(SHAPE)) {
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicBoolean interrupted = new java.util.concurrent.atomic.AtomicBoolean();
            Thread caller = new Thread(() -> {
                try {
                    link.client().call(() -> {
                        started.countDown();
                        try {
                            Thread.sleep(60_000);
                        } catch (InterruptedException e) {
                            interrupted.set(true);
                        }
                        return null;
                    });
                } catch (Exception e) {
                    // the caller was interrupted
                }
            });
            caller.start();
            started.await();
            caller.interrupt();
            caller.join(10_000);
            assertThat(caller.isAlive()).isFalse();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!interrupted.get() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(interrupted).as("the task on the client side was interrupted").isTrue();
            assertThat(link.client().call(() -> {
                link.client().checkCurrentThread();
                return "still there";
            })).isEqualTo("still there");
        }
    }

    @Test
    void aSignalledJvmRemovesItsLinkOnTheWayOut() throws Exception {
        List<String> signals = new ArrayList<>();
        for (String signal : List.of("INT", "TERM")) {
            if (ignoredHere(signal)) {
                // A child inherits an ignored signal, and a JVM started so installs no handler for it: the
                // signal cannot reach it (a non-interactive shell's background jobs ignore INT, e.g. nohup cmd &).
                System.out.println("SIG" + signal + " is ignored by this process tree, so a child JVM cannot be signalled with it: not tested");
                continue;
            }
            signals.add(signal);
        }
        Assumptions.assumeFalse(signals.isEmpty(), "SIGINT and SIGTERM are both ignored by this process tree");
        // a child per signal, started together (each is a JVM that starts another, its delay line)
        List<Process> launched = new ArrayList<>();
        try {
            for (int i = 0; i < signals.size(); i++) {
                launched.add(Child.launch());
            }
            for (int i = 0; i < signals.size(); i++) {
                Child child = Child.opened(launched.get(i));
                new ProcessBuilder("kill", "-" + signals.get(i), Long.toString(child.process.pid())).start().waitFor();
                assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertGone(child.namespaces, child.delayLine);
            }
        } finally {
            launched.forEach(Process::destroyForcibly);
        }
    }

    @Test
    void aKilledJvmsDelayLineRemovesTheNamespaces() throws Exception {
        Child child = Child.start();
        child.process.destroyForcibly();
        assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertGone(child.namespaces, child.delayLine);
    }

    @Test
    void theSweepDeletesNamespacesOfDeadProcessesOnly() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        String dead = Leftovers.PREFIX + gone.pid() + "-1-hub";
        String alive = Leftovers.PREFIX + ProcessHandle.current().pid() + "-9999-hub";
        NetworkNamespace.create(dead);
        NetworkNamespace.create(alive);
        try {
            // Not which sweep deleted the dead one: another JVM's first fabric on this machine (a second build) sweeps too.
            assertThat(Leftovers.sweep()).doesNotContain(alive);
            assertThat(NetworkNamespace.exists(dead)).isFalse();
            assertThat(NetworkNamespace.exists(alive)).isTrue();
        } finally {
            NetworkNamespace.delete(dead);
            NetworkNamespace.delete(alive);
        }
    }

    /** Whether this JVM was started with {@code signal} ignored (SigIgn in /proc/self/status), as its children then are. */
    private static boolean ignoredHere(String signal) throws IOException {
        int number = switch (signal) {
            case "INT" -> 2;
            case "TERM" -> 15;
            default -> throw new IllegalArgumentException(signal);
        };
        String mask = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("SigIgn:")).findFirst().orElse("SigIgn: 0").substring(7).trim();
        return (Long.parseUnsignedLong(mask, 16) >>> (number - 1) & 1) == 1;
    }

    private static void assertGone(List<String> namespaces, long delayLinePid) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline && (namespaces.stream().anyMatch(NetworkNamespace::exists) || !ProcessEnd.ended(delayLinePid))) {
            Thread.sleep(50);
        }
        assertThat(namespaces).allSatisfy(n -> assertThat(NetworkNamespace.exists(n)).as(n).isFalse());
        assertThat(ProcessEnd.ended(delayLinePid)).as("delay line ended").isTrue();
    }

    /** A JVM running {@link HoldLink}. */
    private record Child(Process process, List<String> namespaces, long delayLine) {
        static Child start() throws Exception {
            return opened(launch());
        }

        /** Starts the child JVM; {@link #opened} waits for its link. */
        static Process launch() throws IOException {
            // C1 only: the child only opens a link and waits to be signalled, and starts sooner so (its delay line is the
            // link's own JVM, started as in a run)
            return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                    "-cp", System.getProperty("java.class.path"), HoldLink.class.getName()).redirectErrorStream(true).start();
        }

        /** The child {@code p} once it has opened its link and said what it made. */
        static Child opened(Process p) throws Exception {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            List<String> names = null;
            long pid = -1;
            String line;
            StringBuilder seen = new StringBuilder();
            while ((names == null || pid < 0) && (line = out.readLine()) != null) {
                seen.append(line).append('\n');
                if (line.startsWith("namespaces ")) {
                    names = Arrays.asList(line.substring("namespaces ".length()).split(","));
                } else if (line.startsWith("delay-line ")) {
                    pid = Long.parseLong(line.substring("delay-line ".length()));
                }
            }
            if (names == null || pid < 0) {
                p.destroyForcibly();
                throw new AssertionError("the child did not open its link:\n" + seen);
            }
            Thread drain = new Thread(() -> {
                try {
                    out.transferTo(java.io.Writer.nullWriter());
                } catch (java.io.IOException e) {
                    // ended
                }
            });
            drain.setDaemon(true);
            drain.start();
            assertThat(names).allSatisfy(n -> assertThat(NetworkNamespace.exists(n)).isTrue());
            return new Child(p, names, pid);
        }
    }
}
