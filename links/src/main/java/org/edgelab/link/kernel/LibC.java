package org.edgelab.link.kernel;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The few Linux calls Java 17 has no API for, bound directly with JNA: opening and attaching a TUN device
 * ({@code ioctl(TUNSETIFF)}), moving a thread into a network namespace ({@code setns}), and polling, reading and
 * writing the TUN descriptor. Linux on x86-64 or aarch64 only (the constants are theirs). Thread-safe: each call is a
 * system call of the calling thread; failures throw {@link LastErrorException} carrying errno.
 */
final class LibC {
    static final int O_RDONLY = 0;
    static final int O_RDWR = 2;
    static final int O_NONBLOCK = 0x800;
    static final int O_CLOEXEC = 0x80000;
    static final int CLONE_NEWNET = 0x40000000;
    static final long TUNSETIFF = 0x400454caL;
    static final short IFF_TUN = 0x0001;
    static final short IFF_NO_PI = 0x1000;
    static final short IFF_VNET_HDR = 0x4000;
    static final long TUNSETOFFLOAD = 0x400454d0L;
    static final long TUN_F_CSUM = 0x01;
    /** struct virtio_net_hdr, in front of every packet of a TUN device opened with {@link #IFF_VNET_HDR}. */
    static final int VNET_HDR_SIZE = 10;
    static final short POLLIN = 0x0001;
    static final int EAGAIN = 11;
    static final int EINTR = 4;
    /** struct ifreq: 16 bytes of name, then a union whose first member here is the short flags. */
    static final int IFREQ_SIZE = 40;

    static {
        Native.register(LibC.class, Platform.C_LIBRARY_NAME);
    }

    private LibC() {
    }

    static native int open(String path, int flags) throws LastErrorException;

    static native int close(int fd) throws LastErrorException;

    static native int ioctl(int fd, NativeLong request, byte[] arg) throws LastErrorException;

    static native int ioctl(int fd, NativeLong request, NativeLong arg) throws LastErrorException;

    static native int setns(int fd, int nstype) throws LastErrorException;

    static native long read(int fd, Pointer buffer, long count) throws LastErrorException;

    static native long write(int fd, Pointer buffer, long count) throws LastErrorException;

    static native Pointer memcpy(Pointer destination, Pointer source, long count);

    /** {@code fds} is an array of struct pollfd (int fd, short events, short revents). */
    static native int poll(byte[] fds, long count, int timeoutMillis) throws LastErrorException;

    /** {@code SCHED_FIFO}: a real-time policy, ahead of every normal thread. */
    static final int SCHED_FIFO = 1;

    /** Sets the scheduling policy of thread {@code tid} (0: the calling thread); {@code param} holds the priority. */
    static native int sched_setscheduler(int tid, int policy, int[] param) throws LastErrorException;

    /** The message for errno {@code code}. */
    static String describe(LastErrorException e) {
        return "errno " + e.getErrorCode() + " (" + e.getMessage() + ")";
    }
}
