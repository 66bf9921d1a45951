package org.edgelab.storage.raw.io;

import com.sun.jna.LastErrorException;
import java.io.FileDescriptor;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.channels.FileChannel;

/**
 * The few Linux file calls Java 17 has no API for, bound once with JNA (direct mapping), and the descriptor behind
 * a {@link FileChannel}, read through {@code sun.nio.ch} (every EdgeLab JVM opens it:
 * {@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED}, the root pom's {@code edgelab.lmdb.opens}).
 * {@link #PROBLEM} says why they cannot be made in this JVM, null when they can. Stateless and thread-safe.
 */
final class LinuxCalls {

    static final String PROBLEM;
    private static final Class<?> CHANNEL_CLASS;
    private static final Field CHANNEL_FD;
    private static final Method FD_VAL;

    static {
        String problem = null;
        Class<?> type = null;
        Field fd = null;
        Method fdVal = null;
        try {
            if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
                throw new UnsupportedOperationException("not Linux but " + System.getProperty("os.name"));
            }
            type = Class.forName("sun.nio.ch.FileChannelImpl");
            fd = type.getDeclaredField("fd");
            fd.setAccessible(true);
            fdVal = Class.forName("sun.nio.ch.IOUtil").getDeclaredMethod("fdVal", FileDescriptor.class);
            fdVal.setAccessible(true);
            com.sun.jna.Native.register(LinuxCalls.class, com.sun.jna.Platform.C_LIBRARY_NAME);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            problem = e instanceof java.lang.reflect.InaccessibleObjectException
                    ? "the JVM needs --add-opens java.base/sun.nio.ch=ALL-UNNAMED (" + e.getMessage() + ")"
                    : e.toString();
        }
        PROBLEM = problem;
        CHANNEL_CLASS = type;
        CHANNEL_FD = fd;
        FD_VAL = fdVal;
    }

    private LinuxCalls() {
    }

    /** Returns the descriptor number of {@code channel} (a channel of the default file system). */
    static int descriptor(FileChannel channel) throws IOException {
        if (PROBLEM != null) {
            throw new IOException("file descriptors cannot be read here: " + PROBLEM);
        }
        if (!CHANNEL_CLASS.isInstance(channel)) {
            throw new IOException("not a file channel of the default file system: " + channel.getClass().getName());
        }
        try {
            return (int) FD_VAL.invoke(null, (FileDescriptor) CHANNEL_FD.get(channel));
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot read the descriptor of " + channel + ": " + e, e);
        }
    }

    /** {@code posix_fadvise(2)}: returns 0 or the error number itself (not -1 and errno). */
    static native int posix_fadvise(int fd, long offset, long length, int advice);

    /**
     * {@code syscall(2)} with the arguments of {@code cachestat(2)} (Linux 6.5+: {@code fd}, a {@code cachestat_range},
     * a {@code cachestat} to fill, flags 0): returns 0; on failure throws with errno ({@code ENOSYS} on older kernels).
     */
    static native long syscall(long number, int fd, com.sun.jna.Pointer range, com.sun.jna.Pointer stat, int flags)
            throws LastErrorException;

    /**
     * {@code sendfile(2)}: copies up to {@code count} bytes of {@code inFd} from the offset in {@code offset} (which it
     * advances) to {@code outFd}; returns the bytes copied (0 at the end of the file); on failure throws with errno.
     */
    static native long sendfile(int outFd, int inFd, com.sun.jna.Pointer offset, long count) throws LastErrorException;

    /** {@code getpagesize(3)}. */
    static native int getpagesize();

    /** {@code fallocate(2)}: returns 0; on failure throws with errno. */
    static native int fallocate(int fd, int mode, long offset, long length) throws LastErrorException;
}
