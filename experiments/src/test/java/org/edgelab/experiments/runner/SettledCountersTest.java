package org.edgelab.experiments.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.edgelab.experiments.target.CpuSample;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerCounters;
import org.junit.jupiter.api.Test;

class SettledCountersTest {

    /** A gap and patience a tenth of the runner's: the loop is the same, only its clock is shorter. */
    private static final Duration GAP = SettledCounters.GAP.dividedBy(10);
    private static final Duration PATIENCE = SettledCounters.PATIENCE.dividedBy(10);

    /** A target whose counters are a function of how often they were read. */
    private static RunningTarget target(AtomicInteger reads, IntFunction<Long> requestsAtRead) {
        return new RunningTarget() {
            @Override
            public URI clientUri() {
                return URI.create("http://127.0.0.1:1/");
            }

            @Override
            public ServerCounters counters() {
                long r = requestsAtRead.apply(reads.getAndIncrement());
                return new ServerCounters(r, r, 0, 100 * r, 0);
            }

            @Override
            public CpuSample cpu() {
                return new CpuSample(0, "none");
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void countersThatStillGrowAfterTheRunAreReadOnceTheyStop() throws Exception {
        // As Varnish's: workers add their last few requests to the shared counters a moment later.
        AtomicInteger reads = new AtomicInteger();
        ServerCounters c = SettledCounters.read(target(reads, i -> Math.min(1000L, 990L + 4 * i)), GAP, PATIENCE);
        assertThat(c.requests()).isEqualTo(1000);
        assertThat(reads.get()).as("reads until two agreed").isEqualTo(5);
    }

    @Test
    void countersThatNeverSettleAreTakenAsTheyAreAfterThePatience() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        long start = System.nanoTime();
        ServerCounters c = SettledCounters.read(target(reads, i -> (long) i), GAP, PATIENCE);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(millis).isGreaterThanOrEqualTo(PATIENCE.toMillis());
        assertThat(c.requests()).isEqualTo(reads.get() - 1);
    }
}
