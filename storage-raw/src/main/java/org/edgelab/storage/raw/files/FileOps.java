package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The file-system calls {@link RawFilesStore} makes with its lock held (unlinking object files, renaming written ones
 * into place, opening a stored one to rewrite its header); all may block, for hundreds of milliseconds when the kernel throttles a busy journal. Implementations
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

    /** Opens the object file at {@code path} for writing, to rewrite its header in place; blocks on the file system. */
    FileChannel openForRewrite(Path path) throws IOException;

    /**
     * The calls themselves: {@link Files#deleteIfExists}; {@link Files#move} with ATOMIC_MOVE, REPLACE_EXISTING;
     * {@link FileChannel#open} with WRITE.
     */
    FileOps DIRECT = new FileOps() {
        @Override
        public void delete(Path path) throws IOException {
            Files.deleteIfExists(path);
        }

        @Override
        public void moveIntoPlace(Path from, Path to) throws IOException {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }

        @Override
        public FileChannel openForRewrite(Path path) throws IOException {
            return FileChannel.open(path, StandardOpenOption.WRITE);
        }
    };
}
