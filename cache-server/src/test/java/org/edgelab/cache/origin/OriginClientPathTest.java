package org.edgelab.cache.origin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.edgelab.hashing.HashRing;
import org.junit.jupiter.api.Test;

/** The upstream ring is keyed by the request target's path, without its query or authority. */
class OriginClientPathTest {

    @Test
    void theRingHashesThePathWithoutItsQuery() {
        assertThat(OriginClient.path("/a/b?c=1")).isEqualTo("/a/b");
        assertThat(OriginClient.path("/a/b")).isEqualTo("/a/b");
        assertThat(OriginClient.path("http://edge.example/a/b?c")).isEqualTo("/a/b");
        assertThat(OriginClient.path("http://edge.example")).isEqualTo("/");
        assertThat(OriginClient.path("*")).isEqualTo("*");
        HashRing ring = new HashRing(List.of("a:1", "b:1", "c:1", "d:1", "e:1"), 3);
        for (String target : List.of("/a/b?c=1", "/a/b", "http://edge.example/a/b?c", "http://edge.example",
                "http://edge.example?x", "*", "/?", "/x/y/z")) {
            assertThat(OriginClient.first(ring, target)).as(target).isEqualTo(ring.first(OriginClient.path(target)))
                    .isEqualTo(ring.preference(OriginClient.path(target))[0]);
        }
    }

    /** A request's first upstream costs no allocation: 10,000 look-ups allocate less than a byte each. */
    @Test
    void firstAllocatesNothing() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported()
                && threads.isThreadAllocatedMemoryEnabled());
        HashRing ring = new HashRing(List.of("a:1", "b:1", "c:1"), HashRing.DEFAULT_VIRTUAL_NODES);
        String[] targets = new String[100];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = "/objects/100KB/obj-" + i + "?v=" + i;
        }
        int sum = OriginClient.first(ring, targets[0]);
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            sum += OriginClient.first(ring, targets[i % targets.length]);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated by 10,000 look-ups (sum %d)", sum).isLessThan(10_000);
    }
}
