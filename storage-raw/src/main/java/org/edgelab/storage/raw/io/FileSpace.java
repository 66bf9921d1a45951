package org.edgelab.storage.raw.io;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Punching holes in files ({@code fallocate(2)} with {@code FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE}): the range's
 * blocks are freed and its pages leave the page cache, so what is written there next goes to new pages. That is
 * what makes reusing a file region safe after its bytes were sent with {@code sendfile}: a socket's queue holds
 * references to the pages it was given, not copies, until the peer reads them, so a page written over in place
 * would reach the peer with the new bytes; a punched page keeps the old ones for as long as the socket holds it.
 * ext4, XFS, btrfs and tmpfs support it. Stateless and thread-safe; a call blocks on the file system's metadata.
 */
public final class FileSpace {

    private static final int FALLOC_FL_KEEP_SIZE = 0x01;
    private static final int FALLOC_FL_PUNCH_HOLE = 0x02;
    private static final String PROBE = ".punch-hole-probe";

    private FileSpace() {
    }

    /**
     * Frees {@code [offset, offset + length)} of the file open in {@code channel}, keeping its size: it reads as
     * zeros afterwards, on fresh pages. Whole pages are dropped; a partial page at either end is zeroed in place.
     *
     * @throws IOException saying why when holes cannot be punched here (no JNA, not Linux, the file system does not
     *         support it) or the kernel refused
     */
    public static void punchHole(FileChannel channel, long offset, long length) throws IOException {
        int fd = LinuxCalls.descriptor(channel);
        try {
            LinuxCalls.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, length);
        } catch (LastErrorException e) {
            throw new IOException("fallocate(PUNCH_HOLE) of " + length + " bytes at " + offset + " failed: errno "
                    + e.getErrorCode(), e);
        }
    }

    /** Empty when holes can be punched through {@code channel} (a file channel of the default file system), else why not. */
    public static Optional<String> unsupportedFor(FileChannel channel) {
        try {
            LinuxCalls.descriptor(channel);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Tries a hole in a small file of its own in {@code dir} (created and removed): empty when the file system under
     * {@code dir} can punch holes, else why not.
     */
    public static Optional<String> unsupportedIn(Path dir) {
        if (LinuxCalls.PROBLEM != null) {
            return Optional.of(LinuxCalls.PROBLEM);
        }
        Path probe = dir.resolve(PROBE);
        try {
            try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.allocate(8192), 0);
                punchHole(ch, 0, 4096);
            } finally {
                Files.deleteIfExists(probe);
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
    }
}
