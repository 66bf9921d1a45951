package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import org.edgelab.storage.api.CorruptObjectException;

/**
 * Rebuilds the index of a {@code raw-files} directory at start: walks the hashed directories in
 * parallel (one task per top-level directory), reads and verifies each file's header, deletes
 * leftover temporary files and files whose header is damaged, truncated or misplaced. Bodies are
 * not read here: they are verified on first lookup. A file or directory that vanishes between the
 * listing and the read (a lookup that dropped a damaged file meanwhile, an eviction, an operator)
 * is skipped: the scan describes what is there, and a vanished file is not there. Used by one
 * thread; runs its own pool.
 */
final class IndexRebuilder {

    private static final System.Logger LOG = System.getLogger(IndexRebuilder.class.getName());

    /** A valid object file found by the scan. */
    record Found(ObjectFileHeader header, Path path, long modifiedMillis) {
    }

    /** What the scan found and what it deleted. */
    record Result(List<Found> found, long tempFilesDeleted, long corruptFilesDeleted, long unknownFilesIgnored,
                  long vanishedFiles) {
    }

    private final FileLayout layout;
    private final LongAdder tempDeleted = new LongAdder();
    private final LongAdder corruptDeleted = new LongAdder();
    private final LongAdder unknownIgnored = new LongAdder();
    private final LongAdder vanished = new LongAdder();

    /** Called with each listed file before it is examined; tests use it to change the directory mid-scan. */
    interface ScanHook {
        void beforeExamine(Path file) throws IOException;
    }

    private final ScanHook hook;

    IndexRebuilder(FileLayout layout) {
        this(layout, file -> { });
    }

    IndexRebuilder(FileLayout layout, ScanHook hook) {
        this.layout = layout;
        this.hook = hook;
    }

    Result scan(int threads) throws IOException {
        List<Path> tops = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(layout.root(), Files::isDirectory)) {
            ds.forEach(tops::add);
        }
        List<Found> found = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, tops.size())), r -> {
            Thread t = new Thread(r, "raw-files-rebuild");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (Path top : tops) {
                tasks.add(() -> {
                    scanTree(top, found);
                    return null;
                });
            }
            for (Future<Void> f : pool.invokeAll(tasks)) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while rebuilding the index of " + layout.root(), e);
        } catch (ExecutionException e) {
            throw new IOException("cannot rebuild the index of " + layout.root() + ": " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        // in no particular order: the store orders them by last use (its recency file, else modification time)
        return new Result(List.copyOf(found), tempDeleted.sum(), corruptDeleted.sum(), unknownIgnored.sum(), vanished.sum());
    }

    private void scanTree(Path top, List<Found> found) throws IOException {
        Files.walkFileTree(top, java.util.Set.of(), layout.depth(), new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isRegularFile()) {
                    hook.beforeExamine(file);
                    try {
                        examine(file, attrs, found);
                    } catch (NoSuchFileException e) {
                        vanished.increment();
                    }
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    vanished.increment();
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private void examine(Path file, BasicFileAttributes attrs, List<Found> found) throws IOException {
        String name = file.getFileName().toString();
        if (name.endsWith(FileLayout.TEMP_SUFFIX) && name.length() > 32 && FileLayout.isObjectName(name.substring(0, 32))) {
            Files.deleteIfExists(file);
            tempDeleted.increment();
            return;
        }
        if (!FileLayout.isObjectName(name)) {
            LOG.log(System.Logger.Level.WARNING, "ignoring unknown file in the raw-files directory: {0}", file);
            unknownIgnored.increment();
            return;
        }
        try {
            ObjectFileHeader header = readHeader(file, attrs.size());
            if (!FileLayout.fileName(header.key()).equals(name)
                    || !layout.directoryOf(name).equals(file.getParent())) {
                throw new CorruptObjectException("file is not where the layout puts key '" + header.key() + "'");
            }
            found.add(new Found(header, file, attrs.lastModifiedTime().toMillis()));
        } catch (CorruptObjectException e) {
            LOG.log(System.Logger.Level.WARNING, "deleting damaged object file {0}: {1}", file, e.getMessage());
            Files.deleteIfExists(file);
            corruptDeleted.increment();
        }
    }

    /** Reads and verifies the header of an object file whose size is {@code size}. */
    static ObjectFileHeader readHeader(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ObjectFileHeader header = readHeader(ch, (int) Math.min(size, ObjectFileHeader.TYPICAL_READ));
            if (header.fileLength() != size) {
                throw new CorruptObjectException("file is " + size + " bytes, its header says " + header.fileLength());
            }
            return header;
        }
    }

    /** Reads and verifies a header through {@code ch}, first reading {@code firstRead} bytes. */
    static ObjectFileHeader readHeader(FileChannel ch, int firstRead) throws IOException {
        ByteBuffer buf = readFully(ch, Math.max(firstRead, ObjectFileHeader.FIXED_LENGTH));
        int headerLength = ObjectFileHeader.peekHeaderLength(buf);
        if (headerLength > buf.limit()) {
            buf = readFully(ch, headerLength);
        }
        return ObjectFileHeader.decode(buf);
    }

    private static ByteBuffer readFully(FileChannel ch, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length);
        while (buf.hasRemaining()) {
            if (ch.read(buf, buf.position()) < 0) {
                break;
            }
        }
        return buf.flip();
    }
}
