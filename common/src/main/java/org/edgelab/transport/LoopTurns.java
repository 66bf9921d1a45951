package org.edgelab.transport;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.TimeUnit;

/**
 * How a writer that could go on writing (a large body to a fast reader) gives the other channels of
 * its event loop their turn: it stops and continues with {@link #afterNextIo}, never with
 * {@code execute}. Stateless and thread-safe.
 *
 * <p>Why not {@code execute}: a Netty 4.2 event loop drains its task queue, including the tasks
 * added while it drains, for up to {@code io.netty.eventLoop.maxTaskProcessingQuantumMs} (1 s by
 * default) before it polls I/O again. Writers that re-queue themselves with {@code execute} keep
 * that queue full, so the loop reads nothing for up to a second at a time: new requests, origin
 * bodies and window updates wait, and first-byte times grow to seconds. A task scheduled with no
 * delay is moved to the task queue only when the loop starts its next drain, that is after its
 * next I/O poll, so every turn polls I/O once and then gives each waiting writer one more turn.
 */
public final class LoopTurns {

    private LoopTurns() {
    }

    /** Runs {@code next} on {@code loop} once the loop has polled I/O again (never within the current task drain). */
    public static void afterNextIo(EventExecutor loop, Runnable next) {
        loop.schedule(next, 0, TimeUnit.NANOSECONDS);
    }
}
