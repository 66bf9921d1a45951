package org.edgelab.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recency file: what is written reads back, the format raw-files has written since b9d9ada reads, damage gives nothing. */
class RecencyFileTest {

    private static final String NAME = "engine.recency";

    @TempDir
    Path dir;

    @Test
    void whatIsWrittenReadsBackAndReplacesTheLastFile() throws Exception {
        RecencyFile.write(dir, NAME, new long[] {1, -2, 3, 99}, new long[] {10, 20, 30, 99}, 3);
        assertThat(RecencyFile.read(dir, NAME, "test")).containsExactlyInAnyOrderEntriesOf(Map.of(1L, 10L, -2L, 20L, 3L, 30L));
        RecencyFile.write(dir, NAME, new long[] {7}, new long[] {70}, 1);
        assertThat(RecencyFile.read(dir, NAME, "test")).containsExactlyEntriesOf(Map.of(7L, 70L));
        RecencyFile.write(dir, NAME, new long[0], new long[0], 0);
        assertThat(RecencyFile.read(dir, NAME, "test")).isEmpty();
        assertThat(dir.resolve(NAME + ".tmp")).as("renamed into place").doesNotExist();
    }

    /** The layout spelled out byte by byte: files raw-files wrote before the helper was shared must still read. */
    @Test
    void readsTheVersionOneLayout() throws Exception {
        ByteBuffer b = ByteBuffer.allocate(12 + 2 * 16 + 4);
        b.put(new byte[] {'E', 'L', 'R', 'C'}).putInt(1).putInt(2);
        b.putLong(0x1122334455667788L).putLong(1_765_000_000_000L);
        b.putLong(-5L).putLong(42L);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue());
        Files.write(dir.resolve("raw-files.recency"), b.array());
        assertThat(RecencyFile.read(dir, "raw-files.recency", "test"))
                .containsExactlyInAnyOrderEntriesOf(Map.of(0x1122334455667788L, 1_765_000_000_000L, -5L, 42L));

        RecencyFile.write(dir, "again.recency", new long[] {0x1122334455667788L, -5L},
                new long[] {1_765_000_000_000L, 42L}, 2);
        assertThat(Files.readAllBytes(dir.resolve("again.recency"))).as("written in the same layout").isEqualTo(b.array());
    }

    @Test
    void aMissingOrDamagedFileGivesNoTimes() throws Exception {
        assertThat(RecencyFile.read(dir, NAME, "test")).as("missing").isEmpty();
        RecencyFile.write(dir, NAME, new long[] {1, 2}, new long[] {10, 20}, 2);
        byte[] good = Files.readAllBytes(dir.resolve(NAME));

        byte[] flipped = good.clone();
        flipped[20] ^= 1;
        Files.write(dir.resolve(NAME), flipped);
        assertThat(RecencyFile.read(dir, NAME, "test")).as("a flipped bit").isEmpty();

        Files.write(dir.resolve(NAME), java.util.Arrays.copyOf(good, good.length - 5));
        assertThat(RecencyFile.read(dir, NAME, "test")).as("truncated").isEmpty();

        byte[] otherMagic = good.clone();
        otherMagic[0] = 'X';
        Files.write(dir.resolve(NAME), otherMagic);
        assertThat(RecencyFile.read(dir, NAME, "test")).as("another magic").isEmpty();

        Files.write(dir.resolve(NAME), new byte[3]);
        assertThat(RecencyFile.read(dir, NAME, "test")).as("too short for a header").isEmpty();
    }
}
