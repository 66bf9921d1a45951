package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment whose disk fails while it is being reclaimed (a re-append reading its objects meets the I/O error, so the
 * store takes the disk out in the middle of the reclaim) must stay out with its disk: before the fix the reclaim
 * freed it afterwards and, its header write failing on the closed file, queued it FREE again, so a later rotation
 * could pick a failed disk's slot (and a disk taken back would have had it queued twice).
 */
class SegmentSlotsReclaimTest {

    private static final long SEGMENT = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void aSlotWhoseDiskFailsWhileItIsReclaimedNeverReturnsToTheFreeList() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        DiskHealth disks = new DiskHealth(List.of(dir.resolve("d0"), dir.resolve("d1")), lock);
        SegmentSlots slots = new SegmentSlots(8, SEGMENT, disks, lock, new ReentrantLock());
        disks.listener(d -> { // what RawLogStore does when a disk fails
            slots.killDisk(d);
            slots.retireIfUnpinned(d);
        });
        for (Segment s : slots.all()) {
            Path disk = disks.dir(s.disk);
            Files.createDirectories(disk);
            FileChannel ch = FileChannel.open(disk.resolve(Segment.fileName(s.slot)), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE);
            ch.write(ByteBuffer.wrap(new byte[1]), SEGMENT - 1);
            s.open(ch);
        }
        slots.finishRecovery(1);
        AtomicReference<Segment> victimOnDisk1 = new AtomicReference<>();
        slots.reclaimer(victim -> {
            if (victim.disk == 1 && victimOnDisk1.compareAndSet(null, victim)) {
                disks.failed(1, new IOException("Input/output error")); // as a copy's read of the victim meets it
            }
        });
        byte[] key = "k".repeat(2000).getBytes(java.nio.charset.StandardCharsets.US_ASCII); // ~30 records a segment
        int length = RecordFormat.tombstoneLength(key);
        lock.lock();
        try {
            for (int i = 0; i < 10_000 && victimOnDisk1.get() == null; i++) {
                slots.appendRecord(length, (slot, generation) -> RecordFormat.tombstone(generation, key), null);
            }
            Segment victim = victimOnDisk1.get();
            assertThat(victim).as("a segment on disk 1 was reclaimed").isNotNull();
            assertThat(disks.state(1)).isEqualTo(DiskState.OFFLINE);

            assertThat(victim.state()).as("%s after its disk failed during its reclaim", victim).isEqualTo(SlotState.DEAD);
            for (Segment s : slots.all()) {
                if (s.disk == 1) {
                    assertThat(slots.isQueuedFree(s)).as("%s of the failed disk is queued free", s).isFalse();
                }
            }
            for (int i = 0; i < 2_000; i++) { // the log keeps going round on disk 0 alone
                long[] at = slots.appendRecord(length, (slot, generation) -> RecordFormat.tombstone(generation, key), null);
                assertThat(slots.get((int) at[0]).disk).as("record %d went to a slot of disk", i).isZero();
            }
        } finally {
            lock.unlock();
            slots.closeAll();
        }
    }
}
