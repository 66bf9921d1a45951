package org.edgelab.storage.raw.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Assumptions;
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

    /** A 4 MiB file written and forced to the device, on a file system with read-ahead (skipped elsewhere). */
    private Path coldFile() throws IOException {
        String type = Files.getFileStore(dir).type();
        Assumptions.assumeFalse(type.equals("tmpfs") || type.equals("ramfs"),
                "the temporary directory is on " + type + ", which has no device to read ahead from");
        Path file = dir.resolve("cold");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = ByteBuffer.allocate(FILE_BYTES);
            while (bytes.hasRemaining()) {
                ch.write(bytes);
            }
            ch.force(true);
        }
        return file;
    }

    private static int residentAfterReadingTheFirstPage(Path file, ReadAhead readAhead) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            FileAdvice.advise(ch, FileAdvice.DONTNEED);
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, FILE_BYTES);
            assertThat(Mincore.resident(map)).as("pages resident once dropped").isZero();
            readAhead.apply(ch);
            ByteBuffer page = ByteBuffer.allocate(PAGE);
            while (page.hasRemaining() && ch.read(page, page.position()) > 0) {
                // positional reads until the page is full
            }
            return Mincore.resident(map);
        }
    }

    /** {@code mincore(2)}: which pages of a mapping are in the page cache. */
    private static final class Mincore {
        static {
            Native.register(Mincore.class, Platform.C_LIBRARY_NAME);
        }

        static native int mincore(Pointer address, long length, byte[] vector) throws LastErrorException;

        static int resident(MappedByteBuffer map) {
            byte[] vector = new byte[(map.capacity() + PAGE - 1) / PAGE];
            mincore(Native.getDirectBufferPointer(map), map.capacity(), vector);
            int n = 0;
            for (byte b : vector) {
                n += b & 1;
            }
            return n;
        }
    }
}
