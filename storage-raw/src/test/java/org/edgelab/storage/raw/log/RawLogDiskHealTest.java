package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.storage.raw.log.RawLogFixtures.awaitState;
import static org.edgelab.storage.raw.log.RawLogFixtures.put;
import static org.edgelab.storage.raw.log.RawLogFixtures.served;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.edgelab.storage.contract.ScratchMount;
import org.edgelab.storage.disk.FileSystemShutdown;
import org.edgelab.storage.disk.ScratchFileSystem;
import org.edgelab.storage.disk.ScratchFileSystems;
import org.junit.jupiter.api.Test;

/**
 * A disk that fails for real and heals while the store runs: two ext4 file systems on loop devices, one forced down
 * ({@code EXT4_IOC_SHUTDOWN}: EIO from the kernel on every I/O), then unmounted, checked with {@code e2fsck} and mounted
 * again, as an operator heals a disk. The running store must keep the failed disk out while it fails its probes (also
 * while its mount point is bare), take it back once it answers, counted, admit objects onto it and serve them
 * byte-exact; what the disk held before is gone (it comes back empty), also after a restart. Root only: skipped
 * without it, failed with {@code EDGELAB_REQUIRE_ROOT=1}.
 */
class RawLogDiskHealTest {

    private static final long SIZE = 100_000;
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @Test
    void aFailedDiskThatHealsIsTakenBackEmptyAndStoresAndServesObjectsAgain() throws Exception {
        ScratchMount.require(ScratchFileSystems.loopUnavailableReason());
        try (ScratchMount fs0 = ScratchMount.loopExt4(48L << 20); ScratchMount fs1 = ScratchMount.loopExt4(48L << 20)) {
            RawLogConfig config = new RawLogConfig(List.of(fs0.dir(), fs1.dir()), 32L << 20, 1L << 20,
                    RawLogConfig.Policy.FIFO, RawLogConfig.SyncMode.NONE, 0, false)
                    .withDiskProbeIntervalMillis(100);
            int before = 40;
            try (RawLogShards store = RawLogShards.open("raw-log", config, SegmentChannels.FILES)) {
                put(store, "before-", before, SIZE);
                assertThat(served(store, "before-", before, SIZE)).isEqualTo(before);
                long committedOn1 = (long) store.stats().extra().get("disk.1.objectsCommitted");
                assertThat(committedOn1).as("objects committed on disk 1 before it fails").isPositive();

                FileSystemShutdown.shutDown(fs1.dir());
                int survivors = served(store, "before-", before, SIZE);
                assertThat(survivors).as("objects left on disk 0").isPositive().isLessThan(before);
                awaitState(store, 1, "OFFLINE", PATIENCE);
                Thread.sleep(500); // several probes of the shut-down disk
                Map<String, Object> failed = store.stats().extra();
                assertThat(failed).containsEntry("disk.1.state", "OFFLINE").containsEntry("disk.1.takenBack", 0L)
                        .containsEntry("disksTakenBack", 0L);
                assertThat((long) failed.get("disk.1.probesFailed")).as("failed probes of the shut-down disk").isPositive();
                put(store, "during-", 20, SIZE); // disk 0 alone takes them
                assertThat(served(store, "during-", 20, SIZE)).isEqualTo(20);

                unmountOnceLetGo(fs1.fileSystem());
                long probesFailed = (long) store.stats().extra().get("disk.1.probesFailed");
                Thread.sleep(500); // probes of the bare mount point: no layout file there, so it stays out
                assertThat(store.stats().extra()).containsEntry("disk.1.state", "OFFLINE");
                assertThat((long) store.stats().extra().get("disk.1.probesFailed")).isGreaterThan(probesFailed);
                assertThat(fs1.dir().resolve(DiskReturn.PROBE)).doesNotExist();

                fs1.fileSystem().mountAgain();
                awaitState(store, 1, "ONLINE", PATIENCE);
                Map<String, Object> back = store.stats().extra();
                assertThat(back).containsEntry("disk.1.takenBack", 1L).containsEntry("disksTakenBack", 1L);
                System.out.printf("raw-log disk heal: %d of %d objects survived on disk 0; disk 1 back after %s failed"
                        + " probes%n", survivors, before, back.get("disk.1.probesFailed"));
                assertThat(served(store, "before-", before, SIZE)).as("what the healed disk held is not served again")
                        .isEqualTo(survivors);

                int after = 40;
                put(store, "after-", after, SIZE);
                assertThat((long) store.stats().extra().get("disk.1.objectsCommitted"))
                        .as("objects committed on the healed disk").isGreaterThan(committedOn1);
                assertThat(served(store, "after-", after, SIZE)).as("objects written after the heal, byte-exact").isEqualTo(after);
                assertThat(served(store, "during-", 20, SIZE))
                        .as("objects stored on disk 0 while disk 1 was out, disk 1's keys among them, are still served")
                        .isEqualTo(20);
            }
            try (RawLogShards reopened = RawLogShards.open("raw-log", config, SegmentChannels.FILES)) {
                assertThat(reopened.stats().extra()).containsEntry("disk.0.state", "ONLINE").containsEntry("disk.1.state", "ONLINE");
                assertThat(served(reopened, "after-", 40, SIZE)).as("after a restart, objects stored since the heal").isEqualTo(40);
                int old = served(reopened, "before-", before, SIZE);
                assertThat(old).as("no object of the failed disk comes back at the restart").isLessThanOrEqualTo(before - 1);
            }
        }
    }

    /** Unmounts the failed file system once the store has closed its files on it (as the disk-failure experiment heals). */
    private static void unmountOnceLetGo(ScratchFileSystem fs) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            try {
                fs.unmount();
                return;
            } catch (IOException busy) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the store did not let go of " + fs + " within " + PATIENCE, busy);
                }
                Thread.sleep(50);
            }
        }
    }
}
