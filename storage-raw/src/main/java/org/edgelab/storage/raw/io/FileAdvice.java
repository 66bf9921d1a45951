package org.edgelab.storage.raw.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Optional;

/**
 * {@code posix_fadvise(2)} on the descriptor behind a {@link FileChannel}, which Java 17 has no API for: bound with
 * JNA (already the project's way to make the few Linux calls Java lacks), the descriptor read from the channel
 * through {@code sun.nio.ch}, which every EdgeLab JVM opens ({@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED},
 * the root pom's {@code edgelab.lmdb.opens}). Linux only (the advice numbers are Linux's on every architecture).
 * Stateless and thread-safe; each call is one system call that does not wait for I/O to complete ({@link #WILLNEED}
 * may wait while its reads are queued on a busy device).
 */
public final class FileAdvice {

    /** No special treatment: the kernel's read-ahead (the device's {@code read_ahead_kb}). */
    public static final int NORMAL = 0;
    /** Random access: the kernel reads only the pages asked for (read-ahead off for this open file). */
    public static final int RANDOM = 1;
    /** Sequential access: the kernel doubles its read-ahead window for this open file. */
    public static final int SEQUENTIAL = 2;
    /** The range is needed soon: the kernel starts reading its pages now, without waiting for them. */
    public static final int WILLNEED = 3;
    /** The range is not needed soon: its clean pages leave the page cache now. */
    public static final int DONTNEED = 4;

    private FileAdvice() {
    }

    /** Why advice cannot be given in this JVM (not Linux, no JNA, {@code sun.nio.ch} not opened); empty when it can. */
    public static Optional<String> unavailableReason() {
        return Optional.ofNullable(LinuxCalls.PROBLEM);
    }

    /**
     * Advises the kernel that the whole file open in {@code channel} will be accessed as {@code advice} says
     * ({@link #RANDOM}, {@link #NORMAL}, ...). RANDOM and NORMAL hold for this open file (its descriptor), DONTNEED
     * acts on the file's pages at once.
     *
     * @throws IOException saying why when the advice cannot be given here or the kernel refused it
     */
    public static void advise(FileChannel channel, int advice) throws IOException {
        advise(channel, 0, 0, advice);
    }

    /**
     * Advises the kernel about bytes {@code [offset, offset + length)} of the file open in {@code channel}
     * ({@code length} 0: to the end of the file), as {@link #advise(FileChannel, int)} does for the whole file.
     *
     * @throws IOException saying why when the advice cannot be given here or the kernel refused it
     */
    public static void advise(FileChannel channel, long offset, long length, int advice) throws IOException {
        if (LinuxCalls.PROBLEM != null) {
            throw new IOException("posix_fadvise is not available: " + LinuxCalls.PROBLEM);
        }
        int fd = descriptor(channel);
        int err = LinuxCalls.posix_fadvise(fd, offset, length, advice); // the error number itself, not -1 and errno
        if (err != 0) {
            throw new IOException("posix_fadvise(" + fd + ", advice " + advice + ") failed with errno " + err);
        }
    }

    /** Returns the descriptor number of {@code channel} (a channel of the default file system). */
    static int descriptor(FileChannel channel) throws IOException {
        return LinuxCalls.descriptor(channel);
    }
}
