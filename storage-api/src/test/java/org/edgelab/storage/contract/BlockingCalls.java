package org.edgelab.storage.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingMethod;

/**
 * Finds calls that block on threads that must never block, with BlockHound: installed once per JVM,
 * it records (rather than throws) each blocking call made on such a thread, with the stack that
 * made it. Those threads are Netty's event loops (Netty's own BlockHound integration, found by
 * {@code ServiceLoader} when Netty is on the class path) and the threads of
 * {@link #onNonBlockingThread}. Needs {@code -XX:+AllowRedefinitionToAddDeleteMethods} on Java 17
 * (the root pom's test JVM flags). Thread-safe.
 */
public final class BlockingCalls {

    /** Threads whose name starts with this are checked, as event loops are. */
    public static final String NON_BLOCKING_PREFIX = "edgelab-nonblocking-";

    private static final ConcurrentLinkedQueue<BlockingCallError> FOUND = new ConcurrentLinkedQueue<>();
    private static boolean installed;

    private BlockingCalls() {
    }

    /** A blocking call seen on a non-blocking thread; its stack trace is the caller's. */
    public static final class BlockingCallError extends AssertionError {
        BlockingCallError(BlockingMethod method, Thread thread) {
            super("blocking call " + method + " on non-blocking thread " + thread.getName());
        }
    }

    /** Installs BlockHound (once per JVM; later calls do nothing). */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        BlockHound.install(builder -> {
            builder.nonBlockingThreadPredicate(p -> p.or(t -> t.getName().startsWith(NON_BLOCKING_PREFIX)))
                    .blockingMethodCallback(m -> FOUND.add(new BlockingCallError(m, Thread.currentThread())));
            // BlockHound knows streams and RandomAccessFile, not FileChannel (the engines' I/O, fsync
            // included) nor the file-system calls that create, rename and delete the engines' files.
            for (String[] m : FILE_CALLS) {
                builder.markAsBlocking(m[0], m[1], m[2]);
            }
            // Netty's adaptive allocator takes a short striped lock when it grows its magazines (Netty's
            // own integration allows the neighbouring calls): allocator internals, not a wait for storage.
            builder.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup",
                    "tryExpandMagazines");
        });
        installed = true;
    }

    /**
     * JDK 17 methods under FileChannel and java.nio.file that wait for a disk: class, method,
     * descriptor. FileChannel's relative reads and writes share their natives with NIO sockets, so
     * they are marked in FileChannelImpl; its positional ones, fsync and truncate at the natives.
     * transferTo (sendfile) is left out on purpose: the cache server sends files with it on its loops.
     */
    private static final String[][] FILE_CALLS = {
        {"sun.nio.ch.FileChannelImpl", "read", "(Ljava/nio/ByteBuffer;)I"},
        {"sun.nio.ch.FileChannelImpl", "read", "([Ljava/nio/ByteBuffer;II)J"},
        {"sun.nio.ch.FileChannelImpl", "write", "(Ljava/nio/ByteBuffer;)I"},
        {"sun.nio.ch.FileChannelImpl", "write", "([Ljava/nio/ByteBuffer;II)J"},
        {"sun.nio.ch.FileDispatcherImpl", "pread0", "(Ljava/io/FileDescriptor;JIJ)I"},
        {"sun.nio.ch.FileDispatcherImpl", "pwrite0", "(Ljava/io/FileDescriptor;JIJ)I"},
        {"sun.nio.ch.FileDispatcherImpl", "force0", "(Ljava/io/FileDescriptor;Z)I"},
        {"sun.nio.ch.FileDispatcherImpl", "truncate0", "(Ljava/io/FileDescriptor;J)I"},
        {"sun.nio.fs.UnixNativeDispatcher", "open0", "(JII)I"},
        {"sun.nio.fs.UnixNativeDispatcher", "unlink0", "(J)V"},
        {"sun.nio.fs.UnixNativeDispatcher", "rename0", "(JJ)V"},
        {"sun.nio.fs.UnixNativeDispatcher", "mkdir0", "(JI)V"},
    };

    /** Returns the blocking calls recorded since the last call, and forgets them. */
    public static List<BlockingCallError> drain() {
        List<BlockingCallError> out = new ArrayList<>();
        BlockingCallError e;
        while ((e = FOUND.poll()) != null) {
            out.add(e);
        }
        return out;
    }

    /** Fails with the first recorded blocking call (the others as suppressed), and forgets them all. */
    public static void assertNone(String what) {
        List<BlockingCallError> found = drain();
        if (found.isEmpty()) {
            return;
        }
        AssertionError e = new AssertionError(found.size() + " blocking call(s) on non-blocking threads during "
                + what + "; the first: " + found.get(0).getMessage(), found.get(0));
        for (int i = 1; i < Math.min(found.size(), 20); i++) {
            e.addSuppressed(found.get(i));
        }
        throw e;
    }

    /**
     * Runs {@code call} on a new thread that BlockHound checks as it checks event loops, waits for
     * it (at most 30 s) and returns its result or rethrows its exception. Installs BlockHound first.
     */
    public static <T> T onNonBlockingThread(String name, Callable<T> call) throws Exception {
        install();
        FutureTask<T> task = new FutureTask<>(call);
        Thread t = new Thread(task, NON_BLOCKING_PREFIX + name);
        t.setDaemon(true);
        t.start();
        try {
            return task.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            throw (Error) e.getCause();
        } catch (TimeoutException e) {
            t.interrupt();
            throw new AssertionError("'" + name + "' did not finish within 30 s", e);
        }
    }
}
