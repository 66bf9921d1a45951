package org.edgelab.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyHistogramsTest {
    @TempDir
    Path dir;

    @Test
    void percentilesOfAKnownHistogramAddAllIntervals() throws Exception {
        // 1..1000 microseconds, split over two intervals: p50 = 500 us, p99 = 990 us.
        long[] first = LongStream.rangeClosed(1, 500).map(us -> us * 1000).toArray();
        long[] second = LongStream.rangeClosed(501, 1000).map(us -> us * 1000).toArray();
        Path hlog = dir.resolve("known.hlog");
        TestResults.writeHlog(hlog, first, second);

        Histogram h = LatencyHistograms.read(hlog);

        assertThat(h.getTotalCount()).isEqualTo(1000);
        assertThat(h.getValueAtPercentile(50) / 1e3).isCloseTo(500, within(0.5));
        assertThat(h.getValueAtPercentile(99) / 1e3).isCloseTo(990, within(1.0));
        assertThat(h.getMaxValue() / 1e3).isCloseTo(1000, within(1.0));
    }

    @Test
    void mergeAddsFiles() throws Exception {
        TestResults.writeHlog(dir.resolve("a.hlog"), TestResults.repeat(1_000_000, 30));
        TestResults.writeHlog(dir.resolve("b.hlog"), TestResults.repeat(9_000_000, 70));

        Histogram merged = LatencyHistograms.merge(List.of(dir.resolve("a.hlog"), dir.resolve("b.hlog")));

        assertThat(merged.getTotalCount()).isEqualTo(100);
        assertThat(merged.getValueAtPercentile(30) / 1e6).isCloseTo(1.0, within(0.01));
        assertThat(merged.getValueAtPercentile(31) / 1e6).isCloseTo(9.0, within(0.01));
    }

    @Test
    void aFileThatIsNotAnIntervalLogIsNamed() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.hlog"), "0.000,1.000,6.193,not-base64!!\n");
        assertThatThrownBy(() -> LatencyHistograms.read(bad))
                .isInstanceOf(ResultFormatException.class).hasMessageContaining(bad.toString());
        assertThatThrownBy(() -> LatencyHistograms.read(dir.resolve("absent.hlog")))
                .isInstanceOf(ResultFormatException.class).hasMessageContaining("absent.hlog").hasMessageContaining("does not exist");
    }
}
