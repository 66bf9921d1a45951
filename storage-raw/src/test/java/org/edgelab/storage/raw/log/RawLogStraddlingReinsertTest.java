package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.StoredObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An object read since it was written straddles the oldest segment and the next; a reader pins the oldest, so the log
 * reclaims the next one first and re-appends the object's bytes there. Its new record lists its first part, still in
 * the pinned segment, and the copy: the generations it spans include the reclaimed segment's, though none of its
 * bytes are left there. The reclaim evicted it all the same (the storage-bound run at 10 MB, with 100 readers pinning
 * segments, lost 0.15 of its set this way in its first repetition); it keeps it now.
 */
class RawLogStraddlingReinsertTest {

    private static final long SIZE = 300_000;

    @TempDir
    Path dir;

    @Test
    void anObjectReappendedFromASegmentReclaimedPastAPinnedOneIsKept() throws Exception {
        try (RawLogShards store = RawLogFixtures.open(config())) {
            CacheKey straddling = straddlingObjectRead(store, 3);
            try (StoredObject reader = store.lookup(CacheKey.of("pinned-0")).orElseThrow()) {
                writeColdUntilReappended(store);
                assertThat(RawLogFixtures.check(store, straddling, SIZE)).as("the straddling object, re-appended")
                        .isEqualTo(RawLogFixtures.Outcome.EXACT);
                assertThat((Long) store.stats().extra().get("evictedAfterRead")).as("read objects evicted").isZero();
                assertThat(reader.availableLength()).isEqualTo(100_000);
            }
        }
    }

    @Test
    void laterReclaimsLeaveARecordThatHasNoBytesInTheirSegmentsAlone() throws Exception {
        try (RawLogShards store = RawLogFixtures.open(config())) {
            CacheKey straddling = straddlingObjectRead(store, 2);
            try (StoredObject reader = store.lookup(CacheKey.of("pinned-0")).orElseThrow()) {
                int cold = writeColdUntilReappended(store);
                // its new record spans every generation from the pinned segment's to the copy's: the segments
                // reclaimed next lie inside that span but hold none of its bytes, nor its record
                long evicted = store.stats().evictions();
                for (int more = 0; store.stats().evictions() < evicted + 20; more++, cold++) {
                    RawLogFixtures.put(store, "cold-" + cold + "-", 1, 100_000);
                    assertThat(more).as("cold objects written for two more reclaims").isLessThan(200);
                }
                assertThat((Long) store.stats().extra().get("reinsertedObjects"))
                        .as("re-appends: the straddling object's bytes once, nothing for the reclaims that followed")
                        .isEqualTo(1);
                assertThat(RawLogFixtures.check(store, straddling, SIZE)).as("the straddling object")
                        .isEqualTo(RawLogFixtures.Outcome.EXACT);
                assertThat(reader.availableLength()).isEqualTo(100_000);
            }
        }
    }

    /** 8 segments of 1 MiB: nine 100 KB objects leave the oldest segment about 100 KB short, so the next one straddles. */
    private RawLogConfig config() {
        return RawLogFixtures.config(dir, 1, 8L << 20, 1L << 20, RawLogConfig.Policy.REINSERT);
    }

    /** Writes the nine objects of the oldest segment and the straddling one, and reads the latter {@code reads} times. */
    private static CacheKey straddlingObjectRead(RawLogShards store, int reads) throws Exception {
        RawLogFixtures.put(store, "pinned-", 9, 100_000);
        RawLogFixtures.put(store, "straddling-", 1, SIZE);
        CacheKey straddling = CacheKey.of("straddling-0");
        for (int read = 0; read < reads; read++) {
            assertThat(RawLogFixtures.check(store, straddling, SIZE)).isEqualTo(RawLogFixtures.Outcome.EXACT);
        }
        return straddling;
    }

    /** Writes cold objects until a reclaim re-appended something; returns how many it wrote. */
    private static int writeColdUntilReappended(RawLogShards store) throws Exception {
        int cold = 0;
        for (; (Long) store.stats().extra().get("reinsertedObjects") == 0; cold++) {
            RawLogFixtures.put(store, "cold-" + cold + "-", 1, 100_000);
            assertThat(cold).as("cold objects written before the straddling one was re-appended").isLessThan(200);
        }
        return cold;
    }
}
