package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.DamagedFileScenario;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * raw-log's {@code verify}: with {@code once} (the default) a hit on an object this process wrote is served without its
 * bytes being read to check them first (so where hits go out as file slices, sendfile reads them once, the process
 * never); with {@code always} each reader reads and checks every extent it serves,
 * so damage made while the store runs is found (the object is dropped); either way damage made while the store was
 * closed is a miss at the first lookup after the restart ({@code RawLogFaultTest}).
 */
class RawLogVerifyTest {

    private static final long SIZE = 1L << 20;
    private static final CacheKey KEY = CacheKey.of("verified-once");

    @TempDir
    Path dir;

    /** Opens a one-disk store whose channels count every I/O call in {@code calls}. */
    private RawLogShards open(RawLogConfig.Verify verify, LongAdder calls) throws Exception {
        RawLogConfig config = RawLogFixtures.config(dir, 1, 16L << 20, 1L << 20, RawLogConfig.Policy.FIFO)
                .withVerify(verify);
        return RawLogShards.open("raw-log", config, (disk, file) -> new FaultyChannel(
                SegmentChannels.FILES.open(disk, file), () -> {
                    calls.increment();
                    return false;
                }));
    }

    /** I/O calls made by a lookup and a read of the whole body; checks the bytes. */
    private static long callsForAHit(RawLogShards store, LongAdder calls) throws Exception {
        long before = calls.sum();
        Optional<StoredObject> found = store.lookup(KEY);
        assertThat(found).isPresent();
        try (StoredObject o = found.get()) {
            StoreFixtures.verifyRead(o, TestContent.seed(KEY.value()), 0, SIZE, (int) SIZE);
        }
        return calls.sum() - before;
    }

    @Test
    void onceReadsAHitOfAnObjectThisProcessWroteOnceAlwaysReadsItAgainToCheckIt() throws Exception {
        LongAdder onceCalls = new LongAdder();
        long once;
        try (RawLogShards store = open(RawLogConfig.Verify.ONCE, onceCalls)) {
            StoreFixtures.put(store, KEY, TestContent.seed(KEY.value()), SIZE, 64 * 1024);
            once = callsForAHit(store, onceCalls);
            assertThat(store.stats().extra()).containsEntry("verify", "once");
        }
        LongAdder alwaysCalls = new LongAdder();
        long always;
        try (RawLogShards store = open(RawLogConfig.Verify.ALWAYS, alwaysCalls)) {
            // the same files: an object found at open is checked whole at its first lookup, then each reader checks
            callsForAHit(store, alwaysCalls);
            always = callsForAHit(store, alwaysCalls);
        }
        System.out.printf("raw-log I/O calls for a 1 MiB hit: verify=once %d, verify=always %d%n", once, always);
        // always also reads every extent in 64 KiB pieces to check it before copying it out: 16 calls more per MiB
        assertThat(always).as("always: the bytes read once more, to check them").isGreaterThanOrEqualTo(once + 16);
    }

    @Test
    void alwaysFindsDamageMadeWhileTheStoreRunsAndDropsTheObject() throws Exception {
        try (RawLogShards store = open(RawLogConfig.Verify.ALWAYS, new LongAdder())) {
            StoreFixtures.put(store, KEY, TestContent.seed(KEY.value()), SIZE, 64 * 1024);
            byte[] pattern = new byte[64];
            TestContent.chunk(TestContent.seed(KEY.value()), 700_000, 64).get(pattern);
            DamagedFileScenario.flipBytes(dir, pattern);
            Optional<StoredObject> found = store.lookup(KEY);
            assertThat(found).as("this process wrote it: its lookup does not read it").isPresent();
            try (StoredObject o = found.get()) {
                assertThatThrownBy(() -> o.read(0, ByteBuffer.allocate((int) SIZE)))
                        .isInstanceOf(CorruptObjectException.class);
            }
            assertThat(store.stats().corruptObjectsDropped()).isEqualTo(1);
            assertThat(store.lookup(KEY)).isEmpty();
        }
    }
}
