package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.storage.raw.log.RawLogFixtures.check;
import static org.edgelab.storage.raw.log.RawLogFixtures.sizeOf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage on disk (garbage at random places, truncated segment files, a missing or damaged
 * checkpoint): reopening succeeds, nothing wrong is ever served, damaged objects become misses
 * (reported corrupt at most once) and intact ones are served.
 */
class RawLogCorruptionTest {

    private static final int OBJECTS = 120;

    @TempDir
    Path dir;
    private RawLogConfig config;

    @BeforeEach
    void fill() throws IOException {
        config = RawLogFixtures.config(dir, 2, 64L << 20, 1L << 20, RawLogConfig.Policy.FIFO);
        try (RawLogShards store = RawLogFixtures.open(config)) {
            for (int i = 0; i < OBJECTS; i++) {
                CacheKey k = CacheKey.of("obj-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), sizeOf(i), 32_768);
            }
        }
    }

    private Map<RawLogFixtures.Outcome, Integer> checkAll(RawLogShards store) throws IOException {
        Map<RawLogFixtures.Outcome, Integer> outcomes = new EnumMap<>(RawLogFixtures.Outcome.class);
        for (int i = 0; i < OBJECTS; i++) {
            outcomes.merge(check(store, CacheKey.of("obj-" + i), sizeOf(i)), 1, Integer::sum);
        }
        return outcomes;
    }

    private List<Path> segments() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".seg")).sorted().toList();
        }
    }

    private static long usedLength(Path segment) throws IOException {
        long size = Files.size(segment);
        byte[] all = Files.readAllBytes(segment);
        long end = size;
        while (end > 0 && all[(int) end - 1] == 0) {
            end--;
        }
        return end;
    }

    @Test
    void garbageAtRandomPlacesDropsOnlyTheObjectsItHits() throws IOException {
        Random random = new Random(11);
        int garbage = 12;
        List<Path> segments = segments().stream().filter(p -> {
            try {
                return usedLength(p) > 8192;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).toList();
        for (int g = 0; g < garbage; g++) {
            Path seg = segments.get(random.nextInt(segments.size()));
            long used = usedLength(seg);
            long at = 4096 + (long) (random.nextDouble() * (used - 4096 - 64));
            byte[] junk = new byte[1 + random.nextInt(48)];
            random.nextBytes(junk);
            try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(junk), at);
            }
        }
        try (RawLogShards store = RawLogFixtures.open(config)) {
            Map<RawLogFixtures.Outcome, Integer> outcomes = checkAll(store);
            System.out.println("raw-log garbage in segments: " + outcomes + ", corruptObjectsDropped "
                    + store.stats().corruptObjectsDropped());
            int exact = outcomes.getOrDefault(RawLogFixtures.Outcome.EXACT, 0);
            assertThat(exact).as("intact objects still served").isGreaterThanOrEqualTo(OBJECTS - 2 * garbage);
            assertThat(exact).as("some object was hit").isLessThan(OBJECTS);
            assertThat(store.stats().corruptObjectsDropped()).isPositive();
            assertThat(checkAll(store)).as("a second pass: damaged objects are plain misses now")
                    .doesNotContainKey(RawLogFixtures.Outcome.CORRUPT)
                    .containsEntry(RawLogFixtures.Outcome.EXACT, exact);
        }
    }

    @Test
    void garbageWithoutACheckpointCutsTheLogAndNothingWrongIsServed() throws IOException {
        deleteCheckpoints();
        Random random = new Random(5);
        List<Path> segments = segments();
        Path victim = null;
        for (Path p : segments) {
            if (usedLength(p) > 100_000) {
                victim = p;
                break;
            }
        }
        try (FileChannel ch = FileChannel.open(victim, StandardOpenOption.WRITE)) {
            byte[] junk = new byte[4096];
            random.nextBytes(junk);
            ch.write(ByteBuffer.wrap(junk), usedLength(victim) / 2);
        }
        try (RawLogShards store = RawLogFixtures.open(config)) {
            Map<RawLogFixtures.Outcome, Integer> outcomes = checkAll(store);
            System.out.println("raw-log garbage, no checkpoint: " + outcomes);
            assertThat(outcomes.getOrDefault(RawLogFixtures.Outcome.EXACT, 0)).isGreaterThan(OBJECTS / 2)
                    .isLessThan(OBJECTS);
        }
    }

    @Test
    void truncatedSegmentFilesLoseOnlyTheirTails() throws IOException {
        List<Path> segments = segments();
        int truncated = 0;
        for (Path p : segments) {
            long used = usedLength(p);
            if (used > 100_000 && truncated < 2) {
                try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
                    ch.truncate(used / 2);
                }
                truncated++;
            }
        }
        assertThat(truncated).isEqualTo(2);
        try (RawLogShards store = RawLogFixtures.open(config)) {
            Map<RawLogFixtures.Outcome, Integer> outcomes = checkAll(store);
            System.out.println("raw-log truncated segments: " + outcomes);
            int exact = outcomes.getOrDefault(RawLogFixtures.Outcome.EXACT, 0);
            assertThat(exact).isGreaterThan(OBJECTS / 2).isLessThan(OBJECTS);
            // the store keeps working: new objects are written and read back
            for (int i = 0; i < 10; i++) {
                CacheKey k = CacheKey.of("new-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), 50_000, 8192);
                assertThat(check(store, k, 50_000)).isEqualTo(RawLogFixtures.Outcome.EXACT);
            }
        }
        try (RawLogShards store = RawLogFixtures.open(config)) {
            for (int i = 0; i < 10; i++) {
                assertThat(check(store, CacheKey.of("new-" + i), 50_000)).isEqualTo(RawLogFixtures.Outcome.EXACT);
            }
        }
    }

    @Test
    void aMissingCheckpointIsRebuiltFromAScanOfTheLog() throws IOException {
        deleteCheckpoints();
        try (RawLogShards store = RawLogFixtures.open(config)) {
            assertThat(checkAll(store)).containsOnly(Map.entry(RawLogFixtures.Outcome.EXACT, OBJECTS));
            assertThat(store.stats().extra().get("recovery").toString().split("; "))
                    .as("each disk's log's recovery").allSatisfy(r -> assertThat(r).contains("no checkpoint"));
        }
    }

    @Test
    void aDamagedCheckpointIsIgnoredAndTheLogIsScanned() throws IOException {
        Path checkpoint = checkpoints().get(0);
        try (FileChannel ch = FileChannel.open(checkpoint, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7}), Files.size(checkpoint) / 2);
        }
        try (RawLogShards store = RawLogFixtures.open(config)) {
            assertThat(checkAll(store)).containsOnly(Map.entry(RawLogFixtures.Outcome.EXACT, OBJECTS));
        }
        try (FileChannel ch = FileChannel.open(checkpoints().get(0), StandardOpenOption.WRITE)) {
            ch.truncate(100);
        }
        try (RawLogShards store = RawLogFixtures.open(config)) {
            assertThat(checkAll(store)).containsOnly(Map.entry(RawLogFixtures.Outcome.EXACT, OBJECTS));
        }
    }

    private List<Path> checkpoints() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().equals(Checkpoint.FILE)).toList();
        }
    }

    private void deleteCheckpoints() throws IOException {
        List<Path> found = checkpoints();
        assertThat(found).isNotEmpty();
        for (Path p : found) {
            Files.delete(p);
        }
    }
}
