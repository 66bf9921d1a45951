package org.edgelab.link.kernel;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;

import org.edgelab.link.Endpoint;

/**
 * One side of a kernel link: a network namespace, its address, and a thread that has joined it, on which
 * {@link #call} runs tasks (a server's bind, a load's connects, a child process's start: threads and processes it
 * starts inherit the namespace). Thread-safe; {@link #call} blocks until the task has run (a call from the
 * endpoint's own thread runs at once).
 */
public final class NamespaceEndpoint implements Endpoint {
    private final String name;
    private final NetworkNamespace namespace;
    private final InetAddress address;
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    NamespaceEndpoint(String name, NetworkNamespace namespace, InetAddress address) {
        this.name = name;
        this.namespace = namespace;
        this.address = address;
        CompletableFuture<Void> joined = new CompletableFuture<>();
        this.thread = new Thread(() -> {
            try {
                namespace.joinCurrentThread();
                joined.complete(null);
            } catch (Throwable t) {
                joined.completeExceptionally(t);
                return;
            }
            while (!closed) {
                Runnable task;
                try {
                    task = tasks.take();
                } catch (InterruptedException e) {
                    continue; // a cancelled task's interrupt, or close(): the loop condition decides
                }
                task.run();
                Thread.interrupted(); // a task cancelled while it ran leaves the flag set; it is not the next task's
            }
        }, "netns-" + name);
        thread.setDaemon(true);
        thread.start();
        try {
            joined.get();
        } catch (ExecutionException e) {
            throw new KernelLinkException("cannot put a thread in namespace " + namespace.name() + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KernelLinkException("interrupted while joining namespace " + namespace.name(), e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** The namespace's name ({@code ip netns list} shows it). */
    public String namespace() {
        return namespace.name();
    }

    @Override
    public InetAddress address() {
        return address;
    }

    @Override
    public boolean isHost() {
        return false;
    }

    @Override
    public <T> T call(Callable<T> task) throws Exception {
        if (Thread.currentThread() == thread) {
            return task.call();
        }
        if (closed) {
            throw new IllegalStateException("the " + name + " side of the link is closed");
        }
        FutureTask<T> future = new FutureTask<>(task);
        tasks.put(future);
        try {
            return future.get();
        } catch (InterruptedException e) {
            // the caller gives up (Ctrl-C, a cancelled cell): so does the task, as it would on the caller's own thread
            future.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** {@link #call} for a task that throws no checked exception. */
    <T> T callUnchecked(Callable<T> task) {
        try {
            return call(task);
        } catch (RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KernelLinkException("interrupted", e);
        } catch (Exception e) {
            throw new KernelLinkException(e.getMessage(), e);
        }
    }

    @Override
    public List<String> command(List<String> command) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", namespace.name()));
        c.addAll(command);
        return c;
    }

    @Override
    public void checkCurrentThread() {
        long current = NetworkNamespace.currentThreadInode();
        if (current != namespace.inode()) {
            throw new IllegalStateException("thread '" + Thread.currentThread().getName() + "' is not in namespace "
                    + namespace.name() + " (the " + name + " side of the link): a socket it opened would not cross the link");
        }
    }

    NetworkNamespace netns() {
        return namespace;
    }

    /** Ends the endpoint's thread; tasks not yet run are dropped. */
    void close() {
        closed = true;
        thread.interrupt();
    }

    @Override
    public String toString() {
        return name + " (" + namespace.name() + ", " + address.getHostAddress() + ")";
    }
}
