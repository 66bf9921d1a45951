package org.edgelab.storage.tier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.edgelab.storage.api.StoredObject;

/**
 * A read-ahead window for one sequential reader of a committed disk object: keeps up to
 * {@code windowBytes} after the reader's position fetched (or being fetched) into memory by
 * background reads of {@code blockBytes} each, and serves the reader from them. A jump backwards
 * or past the window restarts it at the new position. The window's buffers are private to the
 * reader and released on {@link #close()}, so memory is bounded by the window per open stream.
 * Used by one reader thread at a time; the fetches run on the given executor.
 */
final class ReadAheadWindow implements AutoCloseable {

    private record Block(long start, int length, CompletableFuture<ByteBuffer> data) {
        long end() {
            return start + length;
        }
    }

    private final StoredObject source;
    private final long objectLength;
    private final long windowBytes;
    private final int blockBytes;
    private final Executor executor;
    private final TierCounters counters;
    private final ArrayDeque<Block> blocks = new ArrayDeque<>();
    /** Every fetch not known to be finished, including those of dropped blocks. */
    private final List<CompletableFuture<ByteBuffer>> inFlight = new ArrayList<>();
    private long nextFetch;

    ReadAheadWindow(StoredObject source, long windowBytes, Executor executor, TierCounters counters) {
        this.source = source;
        this.objectLength = source.availableLength();
        this.windowBytes = windowBytes;
        this.blockBytes = (int) Math.max(4096, Math.min(256 * 1024, windowBytes / 4));
        this.executor = executor;
        this.counters = counters;
    }

    /** Starts fetching the window from {@code position}, where the reader is expected to read next. */
    void prime(long position) {
        blocks.clear();
        nextFetch = position;
        fill(position);
    }

    /** Reads like {@link StoredObject#read}, from the window; fetches ahead of {@code position}. */
    int read(long position, ByteBuffer dst) throws IOException {
        if (position >= objectLength) {
            return -1;
        }
        while (!blocks.isEmpty() && blocks.peekFirst().end() <= position) {
            blocks.removeFirst();
        }
        if (blocks.isEmpty() || blocks.peekFirst().start() > position) {
            blocks.clear();
            nextFetch = position;
        }
        fill(position);
        Block b = blocks.peekFirst();
        if (b == null) {
            return source.read(position, dst);
        }
        ByteBuffer data = await(b);
        int offset = (int) (position - b.start());
        int n = Math.min(dst.remaining(), b.length() - offset);
        dst.put(data.slice(offset, n));
        counters.readAheadServedBytes.add(n);
        fill(position + n);
        return n;
    }

    private void fill(long position) {
        inFlight.removeIf(CompletableFuture::isDone);
        while (nextFetch < objectLength && nextFetch < position + windowBytes) {
            long start = nextFetch;
            int length = (int) Math.min(blockBytes, objectLength - start);
            CompletableFuture<ByteBuffer> data;
            try {
                data = CompletableFuture.supplyAsync(() -> fetch(start, length), executor);
            } catch (RejectedExecutionException e) {
                return;
            }
            blocks.addLast(new Block(start, length, data));
            inFlight.add(data);
            nextFetch = start + length;
        }
    }

    private ByteBuffer fetch(long start, int length) {
        ByteBuffer buf = ByteBuffer.allocate(length);
        try {
            while (buf.hasRemaining()) {
                int n = source.read(start + buf.position(), buf);
                if (n < 0) {
                    throw new IOException("object ended at " + (start + buf.position()) + " during read-ahead");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        counters.readAheadBytes.add(length);
        return buf.flip();
    }

    private static ByteBuffer await(Block b) throws IOException {
        try {
            return b.data().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for read-ahead", e);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw new IOException("read-ahead failed: " + cause, cause);
        }
    }

    /** Waits for the fetches in flight (so none reads the source after it is closed) and drops the window. */
    @Override
    public void close() {
        for (CompletableFuture<ByteBuffer> f : inFlight) {
            f.handle((v, t) -> null).join();
        }
        inFlight.clear();
        blocks.clear();
    }
}
