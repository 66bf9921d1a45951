package org.edgelab.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The busy rate leaves out the idle readings at either end of a window, where a client starts and finishes. */
class LinkSamplerTest {

    private static LinkSampler.Sample at(double seconds, long down, long up) {
        return new LinkSampler.Sample((long) (seconds * 1e9), new LinkCounters(down, up, 0, 0));
    }

    @Test
    void idleReadingsBeforeAndAfterTheTrafficAreLeftOut() {
        List<LinkSampler.Sample> samples = new ArrayList<>();
        // idle for a second while the client starts, then 1e6 bytes a tenth of a second for 2 s, then idle again
        for (int i = 0; i <= 10; i++) {
            samples.add(at(i * 0.1, 500, 50));
        }
        for (int i = 1; i <= 20; i++) {
            samples.add(at(1.0 + i * 0.1, 500 + i * 1_000_000L, 50 + i * 10_000L));
        }
        for (int i = 1; i <= 10; i++) {
            samples.add(at(3.0 + i * 0.1, 500 + 20_000_000L, 50 + 200_000L));
        }
        LinkSampler.BusyRate rate = LinkSampler.BusyRate.of(samples);
        assertThat(rate.seconds()).isCloseTo(2.0, within(1e-9));
        assertThat(rate.downBps()).isCloseTo(80e6, within(1.0));
        assertThat(rate.upBps()).isCloseTo(0.8e6, within(1.0));
        // the whole window's wall time would have said half of that
        double wall = (samples.get(samples.size() - 1).nanos() - samples.get(0).nanos()) / 1e9;
        assertThat(20_000_000L * 8 / wall).isCloseTo(40e6, within(1.0));
    }

    @Test
    void aLinkThatCarriedNothingHasNoRate() {
        assertThat(LinkSampler.BusyRate.of(List.of(at(0, 7, 7), at(0.1, 7, 7)))).isEqualTo(new LinkSampler.BusyRate(0, 0, 0));
        assertThat(LinkSampler.BusyRate.of(List.of(at(0, 7, 7)))).isEqualTo(new LinkSampler.BusyRate(0, 0, 0));
    }
}
