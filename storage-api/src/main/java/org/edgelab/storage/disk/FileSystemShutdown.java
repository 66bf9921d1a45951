package org.edgelab.storage.disk;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.ptr.IntByReference;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Forces a mounted ext4 file system down as the kernel does when its device stops answering:
 * {@code ioctl(EXT4_IOC_SHUTDOWN, EXT4_GOING_FLAGS_NOLOGFLUSH)} (xfstests' {@code godown}). From then on every
 * read, write, fsync and open on it fails with EIO from the kernel, for every process, until it is unmounted and
 * mounted again. Stateless and thread-safe; the call does not block for long.
 */
public final class FileSystemShutdown {

    /** What the fault is, for a run's manifest and notes. */
    public static final String METHOD = "ext4 forced shutdown (ioctl EXT4_IOC_SHUTDOWN, NOLOGFLUSH, xfstests' godown) of a"
            + " mounted loop-device file system: every read, write and fsync on it fails with EIO from the kernel, as on a"
            + " device that stopped answering";

    /** {@code _IOR('X', 125, __u32)}. */
    private static final long EXT4_IOC_SHUTDOWN = 0x8004587DL;
    /** Drop the journal without flushing it: what a dead device gives. */
    private static final int EXT4_GOING_FLAGS_NOLOGFLUSH = 2;
    private static final int O_RDONLY = 0;

    private static final class LibC {
        static {
            Native.register("c");
        }

        static native int open(String path, int flags) throws LastErrorException;

        static native int ioctl(int fd, NativeLong request, IntByReference arg) throws LastErrorException;

        static native int close(int fd) throws LastErrorException;
    }

    private FileSystemShutdown() {
    }

    /** Shuts down the ext4 file system mounted at {@code mountPoint}; throws when the kernel refuses (not ext4, not root). */
    public static void shutDown(Path mountPoint) throws IOException {
        int fd;
        try {
            fd = LibC.open(mountPoint.toString(), O_RDONLY);
        } catch (LastErrorException e) {
            throw new IOException("cannot open " + mountPoint + " to shut its file system down: errno " + e.getErrorCode(), e);
        }
        try {
            LibC.ioctl(fd, new NativeLong(EXT4_IOC_SHUTDOWN), new IntByReference(EXT4_GOING_FLAGS_NOLOGFLUSH));
        } catch (LastErrorException e) {
            throw new IOException("ioctl(EXT4_IOC_SHUTDOWN) on " + mountPoint + " failed: errno " + e.getErrorCode()
                    + " (an ext4 file system and root are needed)", e);
        } finally {
            try {
                LibC.close(fd);
            } catch (LastErrorException ignored) {
                // a descriptor of a shut-down file system may fail to close; it is released all the same
            }
        }
    }
}
