package org.edgelab.storage.raw.io;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Brings a byte range of a file into the page cache on the calling thread, so that a transfer of the range made
 * elsewhere afterwards (a {@code sendfile} on an event loop) copies memory instead of waiting for the device: the
 * engines that lend file slices call it before they hand one out, on the store's read lane. nginx gets the same from
 * {@code aio threads}, which runs the {@code sendfile} itself on a thread; Netty writes a file region on the channel's
 * loop, so the pages must be there before.
 *
 * <p>A range already resident is left alone: {@code cachestat(2)} (Linux 6.5+) counts its cached pages in one system
 * call, so a hot hit costs no copy. Otherwise the kernel is told to read the whole range ({@code POSIX_FADV_WILLNEED},
 * so its reads reach the device side by side even where the file is read without read-ahead) and the range is sent
 * to {@code /dev/null} with {@code sendfile(2)}, which returns once every page is in and copies none of them (a third
 * less CPU per byte than reading the range into a buffer, measured under a memory cgroup in docs/BENCHMARKS.md,
 * 2026-12-07). Where {@code sendfile} to {@code /dev/null} cannot be made, the range is read through a per-thread
 * buffer of {@value #SCRATCH_BYTES} bytes instead; where {@code cachestat} is not available, every range is brought in
 * (pages already in memory too). {@link #status()} says which.
 *
 * <p>May block on I/O: never call it on an event loop. Thread-safe.
 */
public final class PageIn {

    /** Bytes of each thread's read buffer. */
    static final int SCRATCH_BYTES = 256 << 10;
    /** {@code __NR_cachestat}: the same number on every architecture (Linux 6.5). */
    private static final long CACHESTAT = 451;
    private static final int EPERM = 1;
    private static final int ENOSYS = 38;

    private static final ThreadLocal<ByteBuffer> SCRATCH = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(SCRATCH_BYTES));
    /** struct cachestat_range (off, len) then struct cachestat (five counters), 8 bytes each. */
    private static final ThreadLocal<Memory> CACHESTAT_ARGS = ThreadLocal.withInitial(() -> new Memory(7 * Long.BYTES));
    private static final int PAGE_SIZE = LinuxCalls.PROBLEM == null ? LinuxCalls.getpagesize() : 4096;

    /** Why cachestat is not used (null while it is). */
    private static volatile String cachestatProblem = LinuxCalls.PROBLEM;
    /** {@code /dev/null}, where ranges are sent to bring them in (kept open for the process); null when it could not be opened. */
    private static final FileChannel DEV_NULL;
    /** Its descriptor, or -1. */
    private static final int DEV_NULL_FD;
    private static final int EINTR = 4;
    private static final int EINVAL = 22;
    /** Why ranges are read into a buffer instead of sent to /dev/null (null while they are sent). */
    private static volatile String sendfileProblem;
    /** sendfile's offset argument, per thread. */
    private static final ThreadLocal<Memory> SENDFILE_OFFSET = ThreadLocal.withInitial(() -> new Memory(Long.BYTES));

    static {
        FileChannel devNull = null;
        int fd = -1;
        String problem = LinuxCalls.PROBLEM;
        if (problem == null) {
            try {
                devNull = FileChannel.open(java.nio.file.Path.of("/dev/null"), java.nio.file.StandardOpenOption.WRITE);
                fd = LinuxCalls.descriptor(devNull);
            } catch (IOException | RuntimeException e) {
                problem = "/dev/null cannot be opened: " + e;
            }
        }
        DEV_NULL = devNull;
        DEV_NULL_FD = fd;
        sendfileProblem = problem;
    }

    /** How a range not resident is brought in. */
    public enum Method {
        /** {@code POSIX_FADV_WILLNEED}, then {@code sendfile(2)} of the range to {@code /dev/null}: no copy into the JVM. */
        SENDFILE_TO_NULL,
        /** {@code POSIX_FADV_WILLNEED}, then a read of the range through a per-thread buffer (a copy of every byte). */
        READ_INTO_BUFFER,
        /**
         * {@code sendfile(2)} of the range to {@code /dev/null} without {@code WILLNEED}: the channel's own read-ahead
         * brings the pages in, in large folios where the file system has them. For a channel read in order that has
         * the kernel's read-ahead (not {@code POSIX_FADV_RANDOM}).
         */
        SENDFILE_READ_AHEAD
    }

    private PageIn() {
    }

    /**
     * Makes bytes {@code [position, position + length)} of {@code channel}'s file resident; returns how many bytes
     * it read to do so (0 when they already were).
     *
     * @throws EOFException when the file ends inside the range
     * @throws IOException  when the device fails
     */
    public static long resident(FileChannel channel, long position, long length) throws IOException {
        return resident(channel, position, length, Method.SENDFILE_TO_NULL);
    }

    /**
     * Like {@link #resident(FileChannel, long, long)}, bringing a range that is not resident in by {@code method}
     * ({@link Method#SENDFILE_TO_NULL} falls back to reading where sendfile cannot be made; {@link #status()} says so).
     */
    public static long resident(FileChannel channel, long position, long length, Method method) throws IOException {
        if (length <= 0 || isCached(channel, position, length)) {
            return 0;
        }
        if (LinuxCalls.PROBLEM == null && method != Method.SENDFILE_READ_AHEAD) {
            FileAdvice.advise(channel, position, length, FileAdvice.WILLNEED);
        }
        if (method != Method.READ_INTO_BUFFER && sendfileProblem == null) {
            try {
                return sendToNull(channel, position, length);
            } catch (LastErrorException e) {
                if (e.getErrorCode() != EINVAL && e.getErrorCode() != ENOSYS) {
                    throw new IOException("sendfile of " + position + "+" + length + " to /dev/null failed with errno "
                            + e.getErrorCode(), e);
                }
                sendfileProblem = "sendfile to /dev/null refused with errno " + e.getErrorCode();
            }
        }
        ByteBuffer scratch = SCRATCH.get();
        long done = 0;
        while (done < length) {
            scratch.clear().limit((int) Math.min(scratch.capacity(), length - done));
            int n = channel.read(scratch, position + done);
            if (n < 0) {
                throw new EOFException("file ends at " + (position + done) + ", inside the range " + position + "+"
                        + length + " to bring into memory");
            }
            done += n;
        }
        return done;
    }

    /** Sends {@code [position, position + length)} to /dev/null; returns {@code length}. */
    private static long sendToNull(FileChannel channel, long position, long length) throws IOException {
        int in = LinuxCalls.descriptor(channel);
        Memory offset = SENDFILE_OFFSET.get();
        offset.setLong(0, position);
        long end = position + length;
        long at;
        while ((at = offset.getLong(0)) < end) {
            long n;
            try {
                n = LinuxCalls.sendfile(DEV_NULL_FD, in, offset, end - at);
            } catch (LastErrorException e) {
                if (e.getErrorCode() == EINTR) {
                    continue;
                }
                throw e;
            }
            if (n == 0) {
                throw new EOFException("file ends at " + at + ", inside the range " + position + "+" + length
                        + " to bring into memory");
            }
        }
        return length;
    }

    /** Says how ranges are brought in here by {@link Method#SENDFILE_TO_NULL}, the default. */
    public static String status() {
        return status(Method.SENDFILE_TO_NULL);
    }

    /** Says how ranges are brought in here by {@code method}: whether resident ones are recognised, and how the others are read. */
    public static String status(Method method) {
        String cachestat = cachestatProblem;
        String sendfile = sendfileProblem;
        String advice = method == Method.SENDFILE_READ_AHEAD ? "the file's read-ahead" : "WILLNEED";
        String bringIn = method == Method.READ_INTO_BUFFER ? "WILLNEED and a read into a buffer"
                : sendfile == null ? advice + " and a sendfile to /dev/null"
                : advice + " and a read into a buffer (" + sendfile + ")";
        return cachestat == null ? "cachestat, then " + bringIn + " of ranges not resident"
                : bringIn + " of every range (cachestat unavailable: " + cachestat + ")";
    }

    private static boolean isCached(FileChannel channel, long position, long length) throws IOException {
        if (cachestatProblem != null) {
            return false;
        }
        int fd = LinuxCalls.descriptor(channel);
        Memory args = CACHESTAT_ARGS.get();
        long first = position / PAGE_SIZE;
        long end = (position + length + PAGE_SIZE - 1) / PAGE_SIZE;
        args.setLong(0, first * PAGE_SIZE);
        args.setLong(Long.BYTES, (end - first) * PAGE_SIZE);
        try {
            LinuxCalls.syscall(CACHESTAT, fd, args, args.share(2 * Long.BYTES), 0);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == ENOSYS || e.getErrorCode() == EPERM) {
                cachestatProblem = e.getErrorCode() == ENOSYS
                        ? "this kernel has no cachestat (ENOSYS; it came with Linux 6.5)"
                        : "cachestat is not permitted here (EPERM, a seccomp filter)";
                return false;
            }
            throw new IOException("cachestat(" + fd + ") failed with errno " + e.getErrorCode());
        }
        return args.getLong(2 * Long.BYTES) >= end - first; // nr_cache
    }
}
