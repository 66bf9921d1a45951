package org.edgelab.cache.server;

import io.netty.channel.EventLoop;
import java.util.ArrayDeque;
import org.edgelab.transport.LoopTurns;

/**
 * The one writer of response bodies on an event loop: a response head goes out in the turn in
 * which it is ready; bodies share the loop's turn round-robin, each visit writing at most
 * {@link #SLICE_BYTES}, until the turn has written {@link #TURN_BYTES} or lasted
 * {@link #TURN_NANOS}; then the loop polls I/O again ({@link LoopTurns#afterNextIo}) before the
 * bodies go on. A turn is one pass of the loop: the bodies started while it read requests (each
 * writes its first slice at once while the turn has room) and the round-robin after them.
 *
 * <p>This replaces a budget per response per turn (2 MiB, {@code --turn-budget}), whose turn was
 * as long as the loop's responses times the budget: with 50 connections per loop, up to 100 MB,
 * ~120 ms on a 2-core machine, which every request and origin answer on the loop waited for
 * (docs/BENCHMARKS.md, "How long an event-loop turn may write"). Confined to its loop.
 */
final class WriteScheduler {

    /**
     * Most bytes one body writes per visit: 256 KiB, the per-response budget that cut 10 MB
     * objects' TTFB p99 6x at the same req/s (docs/BENCHMARKS.md, 2026-11-30). It cost 1 MB objects
     * a quarter of their req/s only because each further 256 KiB waited for another loop pass; here
     * the round-robin comes back to a body within the same turn while the turn has room.
     */
    static final long SLICE_BYTES = 256 << 10;
    /**
     * Most body bytes written per turn: 2 MiB, about 2.5 ms at the ~0.8 GB/s one loop wrote to
     * loopback clients in the same measurements (100 MB per ~120 ms turn), so that a turn is bounded
     * in bytes too when the clock is read only between visits.
     */
    static final long TURN_BYTES = 2L << 20;
    /**
     * Longest a turn writes before the loop polls I/O again: 1 ms, so a request or an origin answer
     * that arrives on a busy loop waits about a millisecond for its read, not a turn of every body.
     */
    static final long TURN_NANOS = 1_000_000;

    private final EventLoop loop;
    private final ArrayDeque<BodyStreamer> ready = new ArrayDeque<>();
    private boolean drainScheduled;
    private boolean visiting;
    private long turnBytes;
    private long turnStart = System.nanoTime();
    private long turns;
    private long yields;

    WriteScheduler(EventLoop loop) {
        this.loop = loop;
    }

    /** Returns the loop this scheduler writes on. */
    EventLoop loop() {
        return loop;
    }

    /** A new body whose head was just written: it writes its first slice now if the turn has room, else it waits its turn (its head is flushed now). */
    void start(BodyStreamer s) {
        assert loop.inEventLoop();
        if (!drainScheduled && ready.isEmpty() && System.nanoTime() - turnStart >= TURN_NANOS) {
            newTurn(); // the loop was idle: this is a new turn
        }
        if (turnHasRoom()) {
            visit(s);
        } else {
            s.flushHead();
            ready(s);
        }
    }

    /** The body can write again (its channel became writable, or bytes it waited for are there). */
    void ready(BodyStreamer s) {
        assert loop.inEventLoop();
        if (s.queued) {
            return;
        }
        s.queued = true;
        ready.addLast(s);
        if (!drainScheduled) {
            drainScheduled = true;
            LoopTurns.afterNextIo(loop, this::drain);
        }
    }

    private boolean turnHasRoom() {
        return turnBytes < TURN_BYTES && System.nanoTime() - turnStart < TURN_NANOS;
    }

    private void visit(BodyStreamer s) {
        visiting = true;
        try {
            turnBytes += s.writeSlice(SLICE_BYTES);
        } finally {
            visiting = false;
        }
        if (s.wantsToWrite()) {
            ready(s);
        }
    }

    private void drain() {
        if (visiting) {
            // Run from inside a body's write (an EmbeddedChannel runs due tasks in flush): the body
            // being written is out of the queue now, so a drain here would leave it out. Later.
            LoopTurns.afterNextIo(loop, this::drain);
            return;
        }
        drainScheduled = false;
        while (!ready.isEmpty() && turnHasRoom()) {
            BodyStreamer s = ready.pollFirst();
            s.queued = false;
            if (s.wantsToWrite()) {
                visit(s);
            }
        }
        if (!ready.isEmpty()) {
            yields++;
            // bodies are left: poll I/O first (drainScheduled may already be set by visit)
            if (!drainScheduled) {
                drainScheduled = true;
                LoopTurns.afterNextIo(loop, this::drain);
            }
        }
        newTurn();
    }

    private void newTurn() {
        turns++;
        turnBytes = 0;
        turnStart = System.nanoTime();
    }

    /** Returns {turns, turns that ended with bodies left for after the next I/O poll, bodies waiting now}. */
    long[] figures() {
        return new long[] {turns, yields, ready.size()};
    }
}
