package org.edgelab.storage.spi;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.edgelab.storage.api.StorageFullException;

/**
 * Tells a full file system apart from a failing device, in one place for every engine: a write
 * that fails because the file system has no room (ENOSPC, or EDQUOT for a quota) is a refusal the
 * store recovers from by itself, not a reason to take its disk out; any other I/O error (EIO above
 * all) is a failing disk, however little room is left. Stateless and thread-safe; {@link #nearlyFull}
 * and, once per JVM, {@link #isNoSpace} query the file system, which does not block for long.
 */
public final class FileSystemErrors {

    /** Below this much usable space, a failed write whose error cannot be read is taken to be a full file system. */
    static final long NEARLY_FULL_BYTES = 1L << 20;

    /** The C library's English text for ENOENT, which the JDK puts into its I/O errors' messages. */
    private static final String ENGLISH_ENOENT = "no such file or directory";

    private FileSystemErrors() {
    }

    /**
     * Returns whether {@code e}, met while writing under {@code dir}, says the file system is full: its message says
     * ENOSPC or EDQUOT (the JDK reports {@code strerror}: "No space left on device", "Disk quota exceeded"). Any other
     * error is not, even on a nearly full file system: an EIO there is a failing disk. Only where this JVM's system
     * error messages are not in English (a translated C library; checked once) can the message not be read, and then
     * less than 1 MiB left under {@code dir} is taken for a full file system.
     */
    public static boolean isNoSpace(IOException e, Path dir) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null) {
                String lower = m.toLowerCase(Locale.ROOT);
                if (lower.contains("no space left on device") || lower.contains("disk quota exceeded")) {
                    return true;
                }
            }
        }
        if (e == null || dir == null || SystemMessages.ENGLISH) {
            return false;
        }
        return nearlyFull(dir);
    }

    /**
     * Returns whether less than 1 MiB is usable under {@code dir} (false when it cannot be told): for an engine that
     * knows an error to be a short write, which a full file system gives (LMDB reports one as EIO).
     */
    public static boolean nearlyFull(Path dir) {
        try {
            return Files.getFileStore(dir).getUsableSpace() < NEARLY_FULL_BYTES;
        } catch (IOException | RuntimeException unreadable) {
            return false;
        }
    }

    /** Returns the exception a store throws when the file system under {@code dir} is full. */
    public static StorageFullException full(String store, Path dir, IOException cause) {
        return new StorageFullException("the file system under " + store + " (" + dir + ") is full: " + cause.getMessage()
                + "; the store keeps serving what it holds and takes writes again once there is room", cause);
    }

    /** Whether this JVM's I/O errors carry the C library's English messages: told once from an ENOENT it provokes. */
    static final class SystemMessages {
        static final boolean ENGLISH = english();

        private SystemMessages() {
        }

        private static boolean english() {
            Path missing = Path.of(System.getProperty("java.io.tmpdir"), "edgelab-no-such-file-" + System.nanoTime());
            try (RandomAccessFile ignored = new RandomAccessFile(missing.toFile(), "r")) {
                return true; // cannot happen; if it did, assume the usual English messages
            } catch (FileNotFoundException expected) {
                String m = expected.getMessage();
                return m == null || m.toLowerCase(Locale.ROOT).contains(ENGLISH_ENOENT);
            } catch (IOException | RuntimeException other) {
                return true;
            }
        }
    }
}
