package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The file-system calls {@link RawFilesStore} makes with its lock held (unlinking object files, renaming written ones
 * into place); both may block, for hundreds of milliseconds when the kernel throttles a busy journal. Implementations
 * are thread-safe.
 */
interface FileOps {

    /** Deletes {@code path} if it exists; blocks on the file system. */
    void delete(Path path) throws IOException;

    /**
     * Renames {@code from} onto {@code to} atomically, replacing any file there; blocks on the file system. Throws
     * {@link java.nio.file.AtomicMoveNotSupportedException} where the file system cannot.
     */
    void moveIntoPlace(Path from, Path to) throws IOException;

    /** The calls themselves: {@link Files#deleteIfExists}; {@link Files#move} with ATOMIC_MOVE, REPLACE_EXISTING. */
    FileOps DIRECT = new FileOps() {
        @Override
        public void delete(Path path) throws IOException {
            Files.deleteIfExists(path);
        }

        @Override
        public void moveIntoPlace(Path from, Path to) throws IOException {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
    };
}
