package org.edgelab.storage.spi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.edgelab.storage.api.StorageFullException;

/**
 * Tells a full file system apart from a failing device, in one place for every engine: a write
 * that fails because the file system has no room (ENOSPC, or EDQUOT for a quota) is a refusal the
 * store recovers from by itself, not a reason to take its disk out. Stateless and thread-safe;
 * {@link #isNoSpace} may query the file system (a {@code statfs}), which does not block for long.
 */
public final class FileSystemErrors {

    /** Below this much usable space, a failed write is taken to be a full file system. */
    static final long NEARLY_FULL_BYTES = 1L << 20;

    private FileSystemErrors() {
    }

    /**
     * Returns whether {@code e}, met while writing under {@code dir}, says the file system is full:
     * its message (the JDK reports {@code strerror}: "No space left on device", "Disk quota
     * exceeded") or, for messages in another language, less than 1 MiB left where it was written.
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
        if (e == null || dir == null) {
            return false;
        }
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
}
