package org.edgelab.link.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;

import com.sun.jna.Pointer;
import org.junit.jupiter.api.Test;

class DelayRingTest {
    @Test
    void packetsComeOutInOrderWithTheirBytesAcrossManyWraps() {
        DelayRing ring = new DelayRing(3L * (DelayRing.HEADER + DelayRing.MAX_PACKET) + 1000, 5);
        Random random = new Random(1);
        Deque<int[]> expected = new ArrayDeque<>();
        long due = 0;
        int seq = 0;
        for (int round = 0; round < 2000; round++) {
            // fill until full, then drain a random number
            Pointer p;
            while ((p = ring.reserve()) != null && random.nextInt(4) != 0) {
                int length = 1 + random.nextInt(DelayRing.MAX_PACKET);
                p.setInt(0, seq);
                p.setByte(length - 1, (byte) seq);
                ring.commit(length, ++due);
                expected.add(new int[]{seq++, length, (int) due});
            }
            int drain = random.nextInt(expected.size() + 1);
            for (int i = 0; i < drain; i++) {
                int[] e = expected.poll();
                assertThat(ring.peekDue()).isEqualTo(e[2]);
                assertThat(ring.peekLength()).isEqualTo(e[1]);
                Pointer packet = ring.peekPacket();
                if (e[1] >= 4) {
                    assertThat(packet.getInt(0)).isEqualTo(e[0]);
                }
                assertThat(packet.getByte(e[1] - 1)).isEqualTo((byte) e[0]);
                ring.release();
            }
        }
        while (!expected.isEmpty()) {
            assertThat(ring.peekDue()).isEqualTo(expected.poll()[2]);
            ring.release();
        }
        assertThat(ring.isEmpty()).isTrue();
        assertThat(ring.peekDue()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aFullRingRefusesRatherThanOverwrites() {
        DelayRing ring = new DelayRing(0, 1);
        int accepted = 0;
        Pointer p;
        while ((p = ring.reserve()) != null) {
            p.setByte(0, (byte) accepted);
            ring.commit(DelayRing.MAX_PACKET, accepted++);
        }
        assertThat(accepted).isEqualTo(2);
        assertThat(ring.peekDue()).isZero();
        ring.release();
        assertThat(ring.reserve()).isNotNull();
    }
}
