package org.edgelab.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The busy rate leaves out the idle intervals of a window, where a client starts and finishes. */
class LinkSamplerTest {
    private static final long CAP = 100_000_000L;

    private static LinkSampler.Sample at(double seconds, long down, long up) {
        return new LinkSampler.Sample(Math.round(seconds * 1e9), new LinkCounters(down, up, 0, 0));
    }

    /**
     * Idle for a second while the client starts, its handshakes (a few hundred bytes), idle again while it reads its
     * plan, then 1e6 bytes every tenth of a second for 2 s (80 Mbit/s), then idle.
     */
    private static List<LinkSampler.Sample> window() {
        List<LinkSampler.Sample> samples = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            samples.add(at(i * 0.1, 500, 50));
        }
        samples.add(at(1.1, 800, 350));
        samples.add(at(1.2, 800, 350));
        for (int i = 1; i <= 20; i++) {
            samples.add(at(1.2 + i * 0.1, 800 + i * 1_000_000L, 350 + i * 10_000L));
        }
        for (int i = 1; i <= 10; i++) {
            samples.add(at(3.2 + i * 0.1, 800 + 20_000_000L, 350 + 200_000L));
        }
        return samples;
    }

    @Test
    void idleIntervalsAndHandshakesAreLeftOut() {
        LinkSampler.BusyRate rate = LinkSampler.BusyRate.of(window(), CAP);
        // 20 busy intervals, less the first and the last
        assertThat(rate.seconds()).isCloseTo(1.8, within(1e-6));
        assertThat(rate.downBps()).isCloseTo(80e6, within(100.0));
        assertThat(rate.upBps()).isCloseTo(0.8e6, within(100.0));
    }

    @Test
    void withoutACapAnyBytesMakeAnIntervalBusy() {
        // the handshakes' interval counts too: 21 intervals, less the first and the last
        assertThat(LinkSampler.BusyRate.of(window(), 0).seconds()).isCloseTo(1.9, within(1e-6));
    }

    @Test
    void theLoadsPartlyBusyFirstAndLastIntervalsDoNotLowerTheRate() {
        // 80 Mbit/s for 1 s, but the load starts 70 ms into the first busy interval and stops 30 ms into a last one
        // that a late reading stretched to 300 ms
        List<LinkSampler.Sample> samples = new ArrayList<>();
        samples.add(at(0, 0, 0));
        samples.add(at(0.1, 300_000, 3_000));
        long down = 300_000;
        for (int i = 1; i <= 9; i++) {
            down += 1_000_000;
            samples.add(at(0.1 + i * 0.1, down, 0));
        }
        samples.add(at(1.3, down + 300_000, 0));
        LinkSampler.BusyRate rate = LinkSampler.BusyRate.of(samples, CAP);
        assertThat(rate.downBps()).isCloseTo(80e6, within(100.0));
        assertThat(rate.seconds()).isCloseTo(0.8, within(1e-6));
    }

    @Test
    void aLinkThatCarriedNothingHasNoRate() {
        assertThat(LinkSampler.BusyRate.of(List.of(at(0, 7, 7), at(0.1, 7, 7)), CAP)).isEqualTo(new LinkSampler.BusyRate(0, 0, 0));
        assertThat(LinkSampler.BusyRate.of(List.of(at(0, 7, 7)), CAP)).isEqualTo(new LinkSampler.BusyRate(0, 0, 0));
    }
}
