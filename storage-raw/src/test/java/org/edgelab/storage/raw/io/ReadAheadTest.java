package org.edgelab.storage.raw.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code read-ahead=off} reaches the kernel: the advice call succeeds on a real file, and a read then brings into the
 * page cache only the pages it asked for (counted with {@code mincore(2)}), where the kernel's read-ahead brings more.
 */
class ReadAheadTest {

    private static final int PAGE = 4096;
    private static final int FILE_BYTES = 4 << 20;

    @TempDir
    Path dir;

    @Test
    void offIsTheDefaultAndTheAdviceIsTaken() throws IOException {
        assertThat(ReadAhead.SETTING.defaultValue()).isEqualTo("off");
        assertThat(FileAdvice.unavailableReason()).isEmpty();
        Path file = Files.write(dir.resolve("f"), new byte[PAGE]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ReadAhead off = ReadAhead.parse("off");
            off.apply(ch);
            assertThat(off.status()).isEqualTo("off (POSIX_FADV_RANDOM)");
            assertThat(FileAdvice.descriptor(ch)).isGreaterThan(2);
        }
    }

    @Test
    void rawFilesReadsAheadByDefaultAndRawLogDoesNot() throws IOException {
        assertThat(org.edgelab.storage.api.StorageEngines.get("raw-files").settings())
                .contains(ReadAhead.FILES_SETTING).doesNotContain(ReadAhead.SETTING);
        assertThat(ReadAhead.FILES_SETTING.defaultValue()).isEqualTo("kernel");
        try (org.edgelab.storage.api.ObjectStore files = org.edgelab.storage.api.StorageEngines.open("raw-files",
                org.edgelab.plugin.PluginSettings.of("dir", dir.resolve("files").toString()));
             org.edgelab.storage.api.ObjectStore log = org.edgelab.storage.api.StorageEngines.open("raw-log",
                     org.edgelab.plugin.PluginSettings.of("disks", dir.resolve("log").toString(), "capacity", "64m"))) {
            assertThat(files.stats().extra()).containsEntry("readAhead", "kernel");
            assertThat(files.stats().extra().get("pageIn")).asString().contains("the file's read-ahead");
            assertThat(log.stats().extra()).containsEntry("readAhead", "off (POSIX_FADV_RANDOM)");
            assertThat(log.stats().extra().get("pageIn")).asString().contains("WILLNEED");
        }
    }

    @Test
    void aBadValueNamesTheAcceptedOnes() {
        assertThatThrownBy(() -> ReadAhead.parse("maybe")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("engine setting 'read-ahead' must be off or kernel, got 'maybe'");
    }

    @Test
    void withReadAheadOffAReadBringsInOnlyThePagesItAskedFor() throws IOException {
        Path file = coldFile();
        int off = residentAfterReadingTheFirstPage(file, ReadAhead.parse("off"));
        int kernel = residentAfterReadingTheFirstPage(file, ReadAhead.parse("kernel"));
        // The control shows that this measurement sees read-ahead at all (4 pages or more here: an 8 MiB window).
        assertThat(kernel).as("pages resident after a 4 KiB read with the kernel's read-ahead").isGreaterThan(1);
        assertThat(off).as("pages resident after a 4 KiB read with read-ahead off").isEqualTo(1);
    }

    private Path coldFile() throws IOException {
        return PageCacheProbe.deviceFile(dir, "cold", FILE_BYTES);
    }

    private static int residentAfterReadingTheFirstPage(Path file, ReadAhead readAhead) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            FileAdvice.advise(ch, FileAdvice.DONTNEED);
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, FILE_BYTES);
            assertThat(PageCacheProbe.resident(map)).as("pages resident once dropped").isZero();
            readAhead.apply(ch);
            ByteBuffer page = ByteBuffer.allocate(PAGE);
            while (page.hasRemaining() && ch.read(page, page.position()) > 0) {
                // positional reads until the page is full
            }
            return PageCacheProbe.resident(map);
        }
    }
}
