package org.edgelab.storage.disk;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.edgelab.storage.contract.CrashHarness;
import org.edgelab.storage.contract.ScratchMount;
import org.junit.jupiter.api.Test;

/**
 * Scratch file systems for real (root; skipped with the reason without it, failing with EDGELAB_REQUIRE_ROOT=1):
 * close removes the mount, the loop device and the image, and so does a SIGTERM of the process that made it; what a
 * dead process left behind is swept, what a live one mounted is not; an ext4 one
 * unmounted and mounted again keeps its data.
 */
class ScratchFileSystemsTest {

    @Test
    void closeRemovesTheMountTheLoopDeviceAndTheImage() throws Exception {
        ScratchMount.require(ScratchFileSystems.loopUnavailableReason());
        ScratchFileSystem fs = ScratchFileSystems.loopExt4(32L << 20);
        Path dir = fs.dir();
        String device = fs.device().orElseThrow();
        Files.writeString(dir.resolve("kept"), "across a remount");
        fs.unmount();
        fs.mountAgain();
        assertThat(Files.readString(dir.resolve("kept"))).isEqualTo("across a remount");
        Files.newOutputStream(dir.resolve("open")).close();
        fs.close();
        assertThat(ScratchFileSystems.mountPoints()).doesNotContain(dir.toString());
        assertThat(ScratchFileSystems.loopDevices()).noneMatch(l -> l[0].equals(device) && l[1].contains(dir.getFileName().toString()));
        assertThat(dir).doesNotExist();
        assertThat(dir.resolveSibling(dir.getFileName() + ".img")).doesNotExist();
    }

    @Test
    void aSigtermedProcessRemovesItsFileSystemOnTheWayOut() throws Exception {
        ScratchMount.require(ScratchFileSystems.loopUnavailableReason());
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                CrashHarness.classPath(), ScratchFileSystemHolder.class.getName()).redirectErrorStream(true).start();
        try {
            java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream(),
                    java.nio.charset.StandardCharsets.UTF_8));
            String line = out.readLine();
            while (line != null && !line.startsWith(ScratchFileSystemHolder.READY)) {
                line = out.readLine();
            }
            assertThat(line).as("the child mounted its file system").isNotNull();
            String dir = line.substring(ScratchFileSystemHolder.READY.length());
            assertThat(ScratchFileSystems.mountPoints()).contains(dir);

            child.destroy(); // SIGTERM: the shutdown hook runs
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();

            assertThat(ScratchFileSystems.mountPoints()).doesNotContain(dir);
            assertThat(ScratchFileSystems.loopDevices()).noneMatch(l -> l[1].startsWith(dir));
            assertThat(Path.of(dir)).doesNotExist();
            assertThat(Path.of(dir + ".img")).doesNotExist();
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void theSweepRemovesWhatADeadProcessLeftBehind() throws Exception {
        ScratchMount.require(ScratchFileSystems.loopUnavailableReason());
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Path dir = Files.createDirectory(tmp.resolve(ScratchFileSystems.PREFIX + gone.pid() + "-1"));
        Path image = tmp.resolve(dir.getFileName() + ".img");
        try (var f = new java.io.RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(32L << 20);
        }
        String device = Commands.require(List.of("losetup", "--find", "--show", image.toString()));
        Commands.require(List.of("mkfs.ext4", "-q", "-F", device));
        Commands.require(List.of("mount", device, dir.toString()));
        Path tmpfs = Files.createDirectory(tmp.resolve(ScratchFileSystems.PREFIX + gone.pid() + "-2"));
        Commands.require(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", tmpfs.toString()));

        try (ScratchFileSystem live = ScratchFileSystems.tmpfs(1L << 20)) {
            List<String> removed = ScratchFileSystems.sweep();

            // What the sweep guarantees is checked below: afterwards nothing of the dead process is left. Which sweep
            // removed it is not: another JVM's first scratch file system on this machine (a second build) sweeps too,
            // and may take part of it first (seen: its loop device detached between this sweep's unmount and its list).
            assertThat(removed).as("what a live process mounted is never swept")
                    .noneMatch(r -> r.contains(live.dir().toString()));
            assertThat(live.dir()).isDirectory();
            assertThat(ScratchFileSystems.mountPoints()).contains(live.dir().toString());
        }
        assertThat(ScratchFileSystems.mountPoints()).doesNotContain(dir.toString(), tmpfs.toString());
        assertThat(ScratchFileSystems.loopDevices()).noneMatch(l -> l[1].equals(image.toString()));
        assertThat(dir).doesNotExist();
        assertThat(tmpfs).doesNotExist();
        assertThat(image).doesNotExist();
    }
}
