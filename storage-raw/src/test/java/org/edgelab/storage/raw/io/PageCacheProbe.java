package org.edgelab.storage.raw.io;

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

/**
 * The page cache as tests see it: files whose pages can be dropped (written and forced to a device), and how many
 * pages of a mapping or of a byte range are resident, counted with {@code mincore(2)} independently of the calls
 * under test. Stateless and thread-safe.
 */
public final class PageCacheProbe {

    private static final int PAGE = 4096;

    static {
        Native.register(PageCacheProbe.class, Platform.C_LIBRARY_NAME);
    }

    private PageCacheProbe() {
    }

    private static native int mincore(Pointer address, long length, byte[] vector) throws LastErrorException;

    /** Pages of {@code map} resident in the page cache. */
    public static int resident(MappedByteBuffer map) {
        byte[] vector = new byte[(map.capacity() + PAGE - 1) / PAGE];
        mincore(Native.getDirectBufferPointer(map), map.capacity(), vector);
        int n = 0;
        for (byte b : vector) {
            n += b & 1;
        }
        return n;
    }

    /** Pages of bytes {@code [position, position + length)} of {@code channel}'s file resident in the page cache. */
    public static int resident(FileChannel channel, long position, long length) throws IOException {
        long first = position / PAGE * PAGE;
        return resident(channel.map(FileChannel.MapMode.READ_ONLY, first, position + length - first));
    }

    /** Pages that bytes {@code [position, position + length)} touch. */
    public static int pages(long position, long length) {
        return (int) ((position + length + PAGE - 1) / PAGE - position / PAGE);
    }

    /**
     * A file of {@code bytes} zero bytes in {@code dir}, written and forced to the device so that its pages can be
     * dropped ({@link FileAdvice#DONTNEED}); skips the test where {@code dir} is on a memory file system.
     */
    public static Path deviceFile(Path dir, String name, int bytes) throws IOException {
        assumeDevice(dir);
        Path file = dir.resolve(name);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocate(bytes);
            while (zeros.hasRemaining()) {
                ch.write(zeros);
            }
            ch.force(true);
        }
        return file;
    }

    /** Skips the test where {@code dir} is on a memory file system, whose pages cannot be dropped. */
    public static void assumeDevice(Path dir) throws IOException {
        String type = Files.getFileStore(dir).type();
        Assumptions.assumeFalse(type.equals("tmpfs") || type.equals("ramfs"),
                "the temporary directory is on " + type + ", which has no device to read from");
    }
}
