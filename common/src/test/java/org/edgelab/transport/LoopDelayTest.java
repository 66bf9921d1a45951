package org.edgelab.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The probe reports how late a busy loop ran it: a task that holds the loop for 50 ms makes the probe due
 * meanwhile at least ~49 ms late (a lower bound, which a slow machine only raises); on every loop of a group;
 * and nothing more once closed.
 */
class LoopDelayTest {

    private static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    @Test
    void aLoopHeldByATaskReportsTheProbeAsLateAsTheTaskHeldIt() throws Exception {
        EventLoopGroup group = Transport.preferred().newGroup(2, "loop-delay-test");
        try {
            AtomicLong max = new AtomicLong();
            AtomicLong count = new AtomicLong();
            CountDownLatch afterHold = new CountDownLatch(1);
            AtomicLong held = new AtomicLong(Long.MAX_VALUE);
            try (LoopDelay delay = LoopDelay.start(group, Duration.ofMillis(1), ns -> {
                count.incrementAndGet();
                max.accumulateAndGet(ns, Math::max);
                if (System.nanoTime() > held.get()) {
                    afterHold.countDown();
                }
            })) {
                // both loops report while idle
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (count.get() < 20 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertThat(count.get()).isGreaterThanOrEqualTo(20);
                group.next().execute(() -> {
                    long end = System.nanoTime() + HOLD_NANOS;
                    while (System.nanoTime() < end) {
                        Thread.onSpinWait(); // holds the loop as a long turn does
                    }
                    held.set(System.nanoTime());
                });
                assertThat(afterHold.await(10, TimeUnit.SECONDS)).isTrue();
                // The idle loop's probes also report after the hold: wait for the held loop's own late one.
                long lateBound = HOLD_NANOS - TimeUnit.MILLISECONDS.toNanos(2);
                long reportDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (max.get() < lateBound && System.nanoTime() < reportDeadline) {
                    Thread.sleep(5);
                }
                assertThat(max.get()).isGreaterThanOrEqualTo(lateBound);
            }
            Thread.sleep(20); // a probe already due may still report once per loop
            long closed = count.get();
            Thread.sleep(50);
            assertThat(count.get()).isEqualTo(closed);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void aPeriodThatIsNotPositiveIsRefused() {
        EventLoopGroup group = Transport.preferred().newGroup(1, "loop-delay-test");
        try {
            assertThatThrownBy(() -> LoopDelay.start(group, Duration.ZERO, ns -> { }))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("period");
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
