package org.edgelab.storage.eviction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.edgelab.plugin.UnknownPluginException;
import org.junit.jupiter.api.Test;

/** Each policy on known sequences, and the registry that finds them by name. */
class EvictionPoliciesTest {

    private static List<String> drain(EvictionPolicy<String> p) {
        List<String> out = new ArrayList<>();
        for (String k = p.evict(); k != null; k = p.evict()) {
            out.add(k);
        }
        return out;
    }

    private static void insertAll(EvictionPolicy<String> p, long size, String... keys) {
        for (String k : keys) {
            p.onInsert(k, size);
        }
    }

    @Test
    void registryFindsEveryPolicyByName() {
        assertThat(EvictionPolicies.registry().names()).contains("lru", "fifo", "sieve", "s3-fifo");
        assertThat(EvictionPolicies.<String>create("sieve", 1000)).isInstanceOf(SievePolicy.class);
        assertThat(EvictionPolicies.<String>create("s3-fifo", 1000)).isInstanceOf(S3FifoPolicy.class);
        assertThatThrownBy(() -> EvictionPolicies.create("arc", 1000))
                .isInstanceOf(UnknownPluginException.class)
                .hasMessageContaining("'arc'").hasMessageContaining("lru, s3-fifo, sieve");
    }

    @Test
    void lruEvictsTheLeastRecentlyUsed() {
        EvictionPolicy<String> p = EvictionPolicies.create("lru", 1000);
        insertAll(p, 1, "a", "b", "c");
        p.onAccess("a");
        assertThat(drain(p)).containsExactly("b", "c", "a");
    }

    @Test
    void fifoIgnoresReadsAndMovesANewVersionToTheBack() {
        EvictionPolicy<String> p = EvictionPolicies.create("fifo", 1000);
        insertAll(p, 1, "a", "b", "c");
        p.onAccess("a");
        p.onInsert("a", 2);
        p.onRemove("b");
        p.onRemove("missing");
        assertThat(drain(p)).containsExactly("c", "a");
    }

    @Test
    void sieveKeepsVisitedKeysAndItsHandStaysWhereItStopped() {
        EvictionPolicy<String> p = EvictionPolicies.create("sieve", 1000);
        insertAll(p, 1, "a", "b", "c", "d");
        p.onAccess("a");
        p.onAccess("c");
        // hand starts at the tail: a is visited (cleared, kept), b is not
        assertThat(p.evict()).isEqualTo("b");
        p.onInsert("e", 1);
        p.onAccess("a");
        // the hand resumes at c (visited: cleared), then d
        assertThat(p.evict()).isEqualTo("d");
        assertThat(p.evict()).isEqualTo("e");
        // past the head the hand wraps to the tail: a visited again (cleared), c no longer
        assertThat(p.evict()).isEqualTo("c");
        assertThat(p.evict()).isEqualTo("a");
        assertThat(p.evict()).isNull();
    }

    @Test
    void sieveRemovalUnderTheHandMovesItTowardsTheHead() {
        EvictionPolicy<String> p = EvictionPolicies.create("sieve", 1000);
        insertAll(p, 1, "a", "b", "c", "d");
        p.onAccess("a");
        assertThat(p.evict()).isEqualTo("b"); // the hand stops at c
        p.onRemove("c"); // the hand moves on to d
        p.onAccess("a");
        p.onAccess("d");
        // from d: visited (cleared), wrap to a: visited (cleared), then d again
        assertThat(p.evict()).isEqualTo("d");
        assertThat(p.evict()).isEqualTo("a");
        assertThat(p.evict()).isNull();
    }

    @Test
    void s3FifoOneHitWondersLeaveThroughTheSmallQueueWhileAReadKeyMovesToMain() {
        S3FifoPolicy<String> p = new S3FifoPolicy<>(1000); // small queue: 100 bytes
        p.onInsert("hot", 50);
        p.onAccess("hot");
        for (int i = 1; i <= 10; i++) {
            p.onInsert("once-" + i, 50);
        }
        assertThat(p.evict()).isEqualTo("once-1");
        assertThat(p.inMain("hot")).as("read in the small queue, so moved to main").isTrue();
        assertThat(p.inGhost("once-1")).isTrue();
        for (int i = 2; i <= 9; i++) {
            assertThat(p.evict()).isEqualTo("once-" + i);
        }
        // the small queue is now below its share (50 of 100 bytes): main is evicted next
        assertThat(p.evict()).isEqualTo("hot");
        assertThat(p.evict()).isEqualTo("once-10");
    }

    @Test
    void s3FifoAdmitsAKeyRememberedByTheGhostStraightToMain() {
        S3FifoPolicy<String> p = new S3FifoPolicy<>(1000);
        insertAll(p, 60, "x", "y", "z");
        assertThat(p.evict()).isEqualTo("x");
        assertThat(p.inGhost("x")).isTrue();
        p.onInsert("x", 60);
        assertThat(p.inMain("x")).isTrue();
        assertThat(p.inGhost("x")).isFalse();
        p.onInsert("w", 60);
        assertThat(p.inMain("w")).as("a key never seen goes to the small queue").isFalse();
    }

    @Test
    void s3FifoMainQueueReinsertsReadKeysWithADecrementedCounter() {
        S3FifoPolicy<String> p = new S3FifoPolicy<>(1000);
        for (String k : List.of("a", "b", "c")) {
            p.onInsert(k, 100);
            p.onAccess(k);
        }
        p.onInsert("d", 100);
        // evicting from the small queue moves the read keys a, b, c to main (counters cleared) and evicts d
        assertThat(p.evict()).isEqualTo("d");
        assertThat(p.inMain("a")).isTrue();
        p.onAccess("a");
        assertThat(p.evict()).as("a was read in main: reinserted; b was not").isEqualTo("b");
        assertThat(p.evict()).isEqualTo("c");
        assertThat(p.evict()).isEqualTo("a");
        assertThat(p.evict()).isNull();
    }

    @Test
    void s3FifoGhostIsBoundedByTheMainShare() {
        S3FifoPolicy<String> p = new S3FifoPolicy<>(1000); // ghost keeps up to 900 bytes of keys
        for (int i = 0; i < 100; i++) {
            p.onInsert("k" + i, 50);
            assertThat(p.evict()).isEqualTo("k" + i);
        }
        assertThat(p.inGhost("k0")).as("oldest ghost forgotten").isFalse();
        assertThat(p.inGhost("k99")).isTrue();
        int remembered = 0;
        for (int i = 0; i < 100; i++) {
            remembered += p.inGhost("k" + i) ? 1 : 0;
        }
        assertThat(remembered).isEqualTo(18);
    }
}
