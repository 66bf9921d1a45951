package org.edgelab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.loadgen.workload.RequestSlot;
import org.edgelab.loadgen.workload.Workload;
import org.junit.jupiter.api.Test;

/** A load divided into segments sends, all segments together, exactly the requests of the undivided load. */
class SegmentTest {

    @Test
    void connectionsAreSplitSoTheSharesSumToTheTotal() {
        for (int total : new int[] {3, 7, 10, 100}) {
            int sum = 0;
            for (int i = 0; i < 3; i++) {
                int share = new Segment(i, 3).connections(total);
                assertThat(share).isBetween(total / 3, total / 3 + 1);
                sum += share;
            }
            assertThat(sum).isEqualTo(total);
        }
    }

    @Test
    void moreWorkersThanConnectionsFailsSayingSo() {
        assertThatThrownBy(() -> new Segment(0, 4).connections(3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("4 load workers need at least 4 connections (each keeps one open), got 3");
        assertThatThrownBy(() -> LoadConfig.builder().url("http://127.0.0.1:1/").connections(3).threads(1)
                .segment(new Segment(1, 4)).build()).hasMessageContaining("4 load workers need at least 4 connections");
        assertThatThrownBy(() -> Segment.parse("3/3")).hasMessageContaining("worker 3 is not one of 0..2");
        assertThatThrownBy(() -> Segment.parse("x")).hasMessageContaining("expected i/N");
    }

    @Test
    void theCombinedOpenLoopScheduleIsTheUndividedOneEvenlySpaced() {
        for (Schedule whole : List.<Schedule>of(RateSchedule.constant(1000), RateSchedule.ramp(100, 1000, Duration.ofSeconds(1)))) {
            List<Long> combined = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Schedule part = new Segment(i, 3).schedule(whole);
                for (long k = 0; k < 100; k++) {
                    combined.add(part.offsetNanos(k));
                }
            }
            combined.sort(null);
            assertThat(combined).containsExactlyElementsOf(LongStream.range(0, 300).map(whole::offsetNanos).boxed().toList());
        }
        // at a constant rate R: R/3 per worker, worker i shifted by i/3 of its own interval (3/R)
        Schedule one = new Segment(1, 3).schedule(RateSchedule.constant(1000));
        assertThat(one.offsetNanos(1) - one.offsetNanos(0)).isEqualTo(3_000_000);
        assertThat(one.offsetNanos(0)).isEqualTo(1_000_000);
    }

    @Test
    void theWorkersRequestsAreTheUndividedLoadsRequests() {
        // a hit-ratio workload: its first-time requests are at fixed request numbers of the whole load
        Workload whole = ObjectWorkload.builder().objects(50).targetHitRatio(0.8).build();
        List<Boolean> firstTime = new ArrayList<>();
        RequestSlot slot = new RequestSlot();
        var wholeGenerator = whole.newGenerator(1);
        for (long t = 0; t < 300; t++) {
            wholeGenerator.next(t, slot);
            firstTime.add(slot.firstTime);
        }
        Boolean[] combined = new Boolean[300];
        for (int i = 0; i < 3; i++) {
            Segment segment = new Segment(i, 3);
            Workload part = segment.workload(whole);
            assertThat(part.warmUp()).as("the warm-up runs once for the load, not per worker").isNull();
            var generator = part.newGenerator(segment.seed(1));
            for (long k = 0; k < 100; k++) {
                generator.next(k, slot);
                combined[(int) segment.ticket(k)] = slot.firstTime;
            }
        }
        assertThat(combined).containsExactlyElementsOf(firstTime);
        // request bounds and finite workloads split so the shares sum to the total
        for (long total : new long[] {1, 2, 10, 301}) {
            long sum = 0;
            for (int i = 0; i < 3; i++) {
                sum += new Segment(i, 3).requests(total);
            }
            assertThat(sum).isEqualTo(total);
        }
        assertThat(new Segment(0, 3).seed(7)).isEqualTo(7);
        assertThat(new Segment(1, 3).seed(7)).isNotEqualTo(new Segment(2, 3).seed(7)).isNotEqualTo(7);
    }
}
