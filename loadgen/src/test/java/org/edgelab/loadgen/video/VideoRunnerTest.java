package org.edgelab.loadgen.video;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Playback streams against a server behind a shared link. Sizes are scaled down from the reports' 70 MB/s
 * (300 KB/s as 30 frames of 10 KB, 30 frames of look-ahead, health at 10 frames) so the tests stay short
 * on a small machine running Netty's paranoid leak detection.
 */
class VideoRunnerTest {
    @org.junit.jupiter.api.BeforeAll
    static void warmUp() throws InterruptedException {
        org.edgelab.loadgen.Warm.up();
        // load and JIT the playback path once, so the first measured window is not about class loading
        try (PacedServer server = new PacedServer(0)) {
            VideoRunner.run(config(server.url()).streams(2).duration(Duration.ofMillis(1500)).build());
        }
    }

    // The p99 limit is loose because this machine's builds share two cores: a scheduling pause of a few
    // hundred ms is common here. Look-ahead and dropped frames decide health in these tests.
    private static final HealthRule RULE = new HealthRule(Duration.ofMillis(1000), 10, 0);

    /**
     * A shared link of 900 KB/s: two 300 KB/s streams use two thirds of it, so a second stream fills its look-ahead
     * from the spare 600 KB/s in about 0.7 s; three need all of it, so the third never fills its look-ahead.
     */
    private static final long LINK = 900_000;

    private static VideoConfig.Builder config(String url) {
        return VideoConfig.builder().url(url).threads(1).bitrateBytesPerSecond(300_000).fps(30).lookAheadFrames(30)
                .startupFrames(10).fetchesPerStream(4).framesPerObject(300).health(RULE).timeout(Duration.ofSeconds(3));
    }

    @Test
    void fastServerKeepsStreamsHealthy(@TempDir Path dir) throws Exception {
        try (PacedServer server = new PacedServer(0)) {
            // a fixed count measured after a warm-up: the search from 2 to 2 streams
            VideoResult r = VideoRunner.search(config(server.url()).build(),
                    new SearchPlan(2, 1, 2, Duration.ofMillis(1000), Duration.ofMillis(1500)));
            VideoPhase p = r.last();
            assertThat(p.violations(RULE)).as(p.describe(RULE)).isEmpty();
            assertThat(p.framesDropped()).isZero();
            assertThat(p.warmedStreams()).isEqualTo(2);
            assertThat(p.framesPlayed()).isGreaterThan(70); // 1.5 s of playback at 30 fps each: 90 frames
            assertThat(p.minLookAheadWarmed()).isGreaterThanOrEqualTo(10);
            assertThat(p.http().totalErrors()).isZero();
            assertThat(p.http().goodBytes()).isEqualTo(p.framesFetched() * 10_000);
            assertThat(r.highestHealthyStreams()).isEqualTo(2);
            Path json = dir.resolve("video.json");
            r.writeJson(json);
            JsonNode root = new ObjectMapper().readTree(json.toFile());
            assertThat(root.at("/phases/0/healthy").asBoolean()).isTrue();
        }
    }

    @Test
    void slowServerDrainsTheLookAheadAndDropsFrames() throws Exception {
        // 150 KB/s shared by one 300 KB/s stream: it starts after 4 frames (~0.27 s), then its buffer drains at 15
        // frames/s and from ~0.55 s on frames are dropped, for about a second of the run
        try (PacedServer server = new PacedServer(150_000)) {
            VideoResult r = VideoRunner.run(config(server.url()).startupFrames(4).streams(1)
                    .duration(Duration.ofMillis(1500)).build());
            VideoPhase p = r.last();
            assertThat(p.framesPlayed()).isGreaterThan(0);
            assertThat(p.framesDropped()).isGreaterThan(0);
            assertThat(p.stalls()).isGreaterThanOrEqualTo(1);
            assertThat(p.healthy(RULE)).isFalse();
            assertThat(p.lookAhead().getValueAtPercentile(50)).isLessThan(20);
            assertThat(r.highestHealthyStreams()).isZero();
        }
    }

    @Test
    void searchStopsWhereTheSharedLinkRunsOut() throws Exception {
        // 900 KB/s shared by 300 KB/s streams: 2 are served with room to spare, 3 need the whole link, so the search
        // measures 1, 2, 3 (and 4 should 3 pass). A step that cannot be served is unhealthy because its newest stream
        // never fills its look-ahead (its share of the link is not above the frame rate), whatever the warm-up; a
        // healthy step's new stream may still finish warming while measured, so the warm-up cap stays at 1 s.
        try (PacedServer server = new PacedServer(LINK)) {
            VideoResult r = VideoRunner.search(config(server.url()).build(),
                    new SearchPlan(1, 1, 8, Duration.ofMillis(1000), Duration.ofMillis(1000)));
            r.printSummary(System.out);
            assertThat(r.highestHealthyStreams()).isBetween(1, 3);
            assertThat(r.last().healthy(RULE)).isFalse();
            assertThat(r.last().streams()).isEqualTo(r.highestHealthyStreams() + 1);
        }
    }

    @Test
    void bracketSearchStopsStreamsToBisectAndEndsOnAMeasuredPair() throws Exception {
        // the same 900 KB/s link: doubling overshoots to 4 streams, bisection stops one to measure 3 below it
        try (PacedServer server = new PacedServer(LINK)) {
            List<Integer> measured = new ArrayList<>();
            VideoResult r = VideoRunner.search(config(server.url()).build(),
                    SearchPlan.bracket(1, 64, 1, Duration.ofMillis(1000), Duration.ofMillis(1000)), new VideoRunner.StepListener() {
                        @Override
                        public void measuring(int streams) {
                            measured.add(streams);
                        }
                    });
            r.printSummary(System.out);
            int sustained = r.highestHealthyStreams();
            assertThat(sustained).isBetween(1, 3);
            assertThat(r.maxReached()).isFalse();
            assertThat(r.firstUnhealthyStreams()).hasValue(sustained + 1);
            assertThat(r.phases()).extracting(VideoPhase::streams).isEqualTo(measured);
            assertThat(IntStream.range(1, measured.size()).filter(i -> measured.get(i) < measured.get(i - 1)))
                    .as("a count measured right after a higher one: streams were stopped, in %s", measured).isNotEmpty();
            for (VideoPhase p : r.phases()) {
                assertThat(p.streams() <= sustained == p.healthy(RULE) || p.streams() > sustained + 1)
                        .as(p.describe(RULE)).isTrue();
            }
        }
    }
}
