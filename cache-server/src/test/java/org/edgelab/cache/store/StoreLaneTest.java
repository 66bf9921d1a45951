package org.edgelab.cache.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.edgelab.storage.api.StoreCall;
import org.junit.jupiter.api.Test;

/** Which lane each store call takes: the calls a hit makes are never behind a write. */
class StoreLaneTest {

    private static final Set<StoreCall> READS = EnumSet.of(StoreCall.LOOKUP, StoreCall.READ, StoreCall.VIEW,
            StoreCall.FILE_SLICE, StoreCall.RELEASE, StoreCall.USAGE, StoreCall.FOLLOW);

    @Test
    void everyCallOfAHitIsOnTheReadLaneAndEveryWriteOnTheWriteLane() {
        for (StoreCall call : StoreCall.values()) {
            assertThat(StoreLane.of(call)).as("%s", call)
                    .isEqualTo(READS.contains(call) ? StoreLane.READ : StoreLane.WRITE);
        }
        assertThat(EnumSet.complementOf(EnumSet.copyOf(READS))).containsExactlyInAnyOrder(StoreCall.BEGIN,
                StoreCall.WRITE, StoreCall.COMMIT, StoreCall.ABORT, StoreCall.REMOVE, StoreCall.UPDATE_METADATA);
    }

    @Test
    void aBodyThatMakesTwoKindsOfCallIsOnTheWriteLaneIfEitherIsAWrite() {
        for (StoreCall a : StoreCall.values()) {
            for (StoreCall b : StoreCall.values()) {
                boolean write = !READS.contains(a) || !READS.contains(b);
                assertThat(StoreLane.of(a, b)).as("%s with %s", a, b).isEqualTo(write ? StoreLane.WRITE : StoreLane.READ);
            }
        }
    }
}
