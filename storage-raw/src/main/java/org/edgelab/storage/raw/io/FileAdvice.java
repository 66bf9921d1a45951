package org.edgelab.storage.raw.io;

import java.io.FileDescriptor;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.channels.FileChannel;
import java.util.Optional;

/**
 * {@code posix_fadvise(2)} on the descriptor behind a {@link FileChannel}, which Java 17 has no API for: bound with
 * JNA (already the project's way to make the few Linux calls Java lacks), the descriptor read from the channel
 * through {@code sun.nio.ch}, which every EdgeLab JVM opens ({@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED},
 * the root pom's {@code edgelab.lmdb.opens}). Linux only (the advice numbers are Linux's on every architecture).
 * Stateless and thread-safe; each call is one system call that does not block on I/O.
 */
public final class FileAdvice {

    /** No special treatment: the kernel's read-ahead (the device's {@code read_ahead_kb}). */
    public static final int NORMAL = 0;
    /** Random access: the kernel reads only the pages asked for (read-ahead off for this open file). */
    public static final int RANDOM = 1;
    /** Sequential access: the kernel doubles its read-ahead window for this open file. */
    public static final int SEQUENTIAL = 2;
    /** The range is not needed soon: its clean pages leave the page cache now. */
    public static final int DONTNEED = 4;

    private FileAdvice() {
    }

    /** Why advice cannot be given in this JVM (not Linux, no JNA, {@code sun.nio.ch} not opened); empty when it can. */
    public static Optional<String> unavailableReason() {
        return Optional.ofNullable(Binding.PROBLEM);
    }

    /**
     * Advises the kernel that the whole file open in {@code channel} will be accessed as {@code advice} says
     * ({@link #RANDOM}, {@link #NORMAL}, ...). RANDOM and NORMAL hold for this open file (its descriptor), DONTNEED
     * acts on the file's pages at once.
     *
     * @throws IOException saying why when the advice cannot be given here or the kernel refused it
     */
    public static void advise(FileChannel channel, int advice) throws IOException {
        if (Binding.PROBLEM != null) {
            throw new IOException("posix_fadvise is not available: " + Binding.PROBLEM);
        }
        int fd = descriptor(channel);
        int err = Binding.posix_fadvise(fd, 0, 0, advice); // returns the error number itself, not -1 and errno
        if (err != 0) {
            throw new IOException("posix_fadvise(" + fd + ", advice " + advice + ") failed with errno " + err);
        }
    }

    /** Returns the descriptor number of {@code channel} (a channel of the default file system). */
    static int descriptor(FileChannel channel) throws IOException {
        if (!Binding.CHANNEL_CLASS.isInstance(channel)) {
            throw new IOException("not a file channel of the default file system: " + channel.getClass().getName());
        }
        try {
            return (int) Binding.FD_VAL.invoke(null, (FileDescriptor) Binding.CHANNEL_FD.get(channel));
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot read the descriptor of " + channel + ": " + e, e);
        }
    }

    /** The native function and the reflective handles, bound once; {@link #PROBLEM} says why not when they are not. */
    private static final class Binding {
        static final String PROBLEM;
        static final Class<?> CHANNEL_CLASS;
        static final Field CHANNEL_FD;
        static final Method FD_VAL;

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
                com.sun.jna.Native.register(Binding.class, com.sun.jna.Platform.C_LIBRARY_NAME);
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

        static native int posix_fadvise(int fd, long offset, long length, int advice);
    }
}
