package org.edgelab.storage.raw.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PageIn} on a real file read without read-ahead (as the raw engines read): a range brought in is resident page
 * for page (counted with {@code mincore(2)}), a resident range costs no read where the kernel has {@code cachestat},
 * and a range past the end of the file fails instead of lending a slice that cannot be sent.
 */
class PageInTest {

    private static final int FILE_BYTES = 8 << 20;
    private static final long AT = (1 << 20) + 100;
    private static final long LENGTH = 3 << 20;

    @TempDir
    Path dir;

    @Test
    void aColdRangeIsResidentAfterwardsAndNothingAroundItIs() throws IOException {
        Path file = PageCacheProbe.deviceFile(dir, "segment", FILE_BYTES);
        try (FileChannel ch = coldRandomAccess(file)) {
            assertThat(PageIn.resident(ch, AT, LENGTH)).as("bytes read").isEqualTo(LENGTH);
            assertThat(PageIn.status()).as("brought in without a copy into the JVM").contains("sendfile to /dev/null")
                    .doesNotContain("read into a buffer");
            assertThat(PageCacheProbe.resident(ch, AT, LENGTH)).as("pages of the range resident")
                    .isEqualTo(PageCacheProbe.pages(AT, LENGTH));
            assertThat(PageCacheProbe.resident(ch, 0, FILE_BYTES)).as("pages of the file resident")
                    .isEqualTo(PageCacheProbe.pages(AT, LENGTH));
        }
    }

    @Test
    void aColdRangeComesInByTheReadAheadOfAFileReadInOrder() throws IOException {
        Path file = PageCacheProbe.deviceFile(dir, "object", FILE_BYTES);
        try (FileChannel ch = coldRandomAccess(file)) {
            FileAdvice.advise(ch, FileAdvice.NORMAL); // as raw-files opens an object's file with read-ahead=kernel
            assertThat(PageIn.resident(ch, AT, LENGTH, PageIn.Method.SENDFILE_READ_AHEAD)).isEqualTo(LENGTH);
            assertThat(PageCacheProbe.resident(ch, AT, LENGTH)).as("pages of the range resident")
                    .isEqualTo(PageCacheProbe.pages(AT, LENGTH));
            assertThat(PageCacheProbe.resident(ch, 0, AT - AT % 4096)).as("pages before the range's first").isZero();
        }
    }

    @Test
    void aResidentRangeIsNotReadAgainWhereTheKernelCountsCachedPages() throws IOException {
        Path file = PageCacheProbe.deviceFile(dir, "segment", FILE_BYTES);
        try (FileChannel ch = coldRandomAccess(file)) {
            PageIn.resident(ch, AT, LENGTH);
            long again = PageIn.resident(ch, AT, LENGTH);
            if (kernelAtLeast(6, 5)) {
                assertThat(PageIn.status()).startsWith("cachestat");
                assertThat(again).as("bytes read for a resident range").isZero();
            } else {
                assertThat(PageIn.status()).contains("cachestat unavailable");
                assertThat(again).isEqualTo(LENGTH);
            }
        }
    }

    @Test
    void aRangePartlyResidentIsReadWhole() throws IOException {
        Path file = PageCacheProbe.deviceFile(dir, "segment", FILE_BYTES);
        try (FileChannel ch = coldRandomAccess(file)) {
            ch.read(ByteBuffer.allocate(4096), AT);
            assertThat(PageIn.resident(ch, AT, LENGTH)).isEqualTo(LENGTH);
            assertThat(PageCacheProbe.resident(ch, AT, LENGTH)).isEqualTo(PageCacheProbe.pages(AT, LENGTH));
        }
    }

    @Test
    void aRangePastTheEndOfTheFileFails() throws IOException {
        Path file = PageCacheProbe.deviceFile(dir, "short", 1 << 20);
        try (FileChannel ch = coldRandomAccess(file)) {
            assertThatThrownBy(() -> PageIn.resident(ch, 512 << 10, 1 << 20)).isInstanceOf(EOFException.class)
                    .hasMessageContaining("file ends at 1048576");
        }
    }

    /** Opens {@code file} as the raw engines do (no read-ahead) with none of its pages in the page cache. */
    private static FileChannel coldRandomAccess(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        FileAdvice.advise(ch, FileAdvice.RANDOM);
        FileAdvice.advise(ch, FileAdvice.DONTNEED);
        assertThat(PageCacheProbe.resident(ch, 0, ch.size())).as("pages resident once dropped").isZero();
        return ch;
    }

    private static boolean kernelAtLeast(int major, int minor) {
        String[] v = System.getProperty("os.version").split("[.-]");
        int ma = Integer.parseInt(v[0]);
        return ma > major || ma == major && Integer.parseInt(v[1]) >= minor;
    }
}
