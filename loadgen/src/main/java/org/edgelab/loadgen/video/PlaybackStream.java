package org.edgelab.loadgen.video;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.EventLoop;
import org.edgelab.loadgen.client.HttpConnection;
import org.edgelab.loadgen.client.FetchDriver;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.workload.RequestSlot;
import org.edgelab.origin.content.SyntheticPaths;

/**
 * One playback stream: fetches consecutive frames of its object (or of the library's objects in turn,
 * {@link VideoConfig#objects()}) as byte ranges over a few connections,
 * keeping at most the look-ahead window ahead of the play head; once the startup frames are complete
 * the play head advances one frame per 1/fps, and a frame not complete when due is dropped (a run of
 * dropped frames is one stall). Each tick samples the frames complete ahead of the play head.
 *
 * <p>Thread-safety: confined to its event loop.
 */
final class PlaybackStream implements FetchDriver {
    private final VideoConfig config;
    private final VideoLoopMetrics metrics;
    private final EventLoop loop;
    private final int index;
    private final String pathPrefix;
    private final long objectSize;
    private final long frameBytes;
    private final boolean[] complete;
    private final ArrayDeque<Long> retries = new ArrayDeque<>();
    private final List<HttpConnection> connections = new ArrayList<>();
    private final int warmLookAhead;
    private long playHead;
    private long nextFetch;
    private long contiguousEnd;
    private boolean playing;
    private boolean warmed;
    private boolean inStall;
    private long minLookAheadSinceSnapshot = Long.MAX_VALUE;
    private ScheduledFuture<?> ticker;

    PlaybackStream(VideoConfig config, int index, VideoLoopMetrics metrics, EventLoop loop, Bootstrap template,
                   HttpConnection.Settings settings, String pathPrefix) {
        this.config = config;
        this.metrics = metrics;
        this.loop = loop;
        this.index = index;
        this.pathPrefix = pathPrefix;
        this.frameBytes = config.frameBytes();
        this.objectSize = frameBytes * config.framesPerObject();
        this.complete = new boolean[config.lookAheadFrames() + config.fetchesPerStream() + 2];
        this.warmLookAhead = Math.max(1, config.lookAheadFrames() - config.fetchesPerStream());
        for (int i = 0; i < config.fetchesPerStream(); i++) {
            connections.add(new HttpConnection(this, metrics.http, loop, template, settings));
        }
    }

    /** Opens the connections; they start fetching at once. Call on the loop. */
    void start() {
        connections.forEach(HttpConnection::start);
    }

    @Override
    public long nextFetch(RequestSlot slot) {
        long frame = -1;
        while (!retries.isEmpty()) {
            long f = retries.poll();
            if (f >= playHead) {
                frame = f;
                break;
            }
        }
        if (frame < 0) {
            if (nextFetch < playHead) {
                nextFetch = playHead;
            }
            if (nextFetch - playHead >= config.lookAheadFrames()) {
                return -1;
            }
            frame = nextFetch++;
        }
        long offset = (frame % config.framesPerObject()) * frameBytes;
        String id = config.namespace() + config.objectOf(index, frame);
        slot.range(pathPrefix + SyntheticPaths.path(id, objectSize), id, objectSize, offset, offset + frameBytes - 1);
        return frame;
    }

    @Override
    public void fetched(long frame, ErrorClass error, long sentNanos, long endNanos, long bodyBytes) {
        if (error != null) {
            if (frame >= playHead) {
                retries.add(frame);
            }
            return;
        }
        metrics.frameLatency.recordValue(Math.max(0, endNanos - sentNanos));
        metrics.framesFetched++;
        if (frame < playHead) {
            return; // arrived after it was due: already dropped
        }
        complete[(int) (frame % complete.length)] = true;
        advance();
        long ahead = contiguousEnd - playHead;
        if (!playing && ahead >= config.startupFrames()) {
            playing = true;
            long period = 1_000_000_000L / config.fps();
            ticker = loop.scheduleAtFixedRate(this::tick, period, period, TimeUnit.NANOSECONDS);
        }
        if (!warmed && ahead >= warmLookAhead) {
            warmed = true;
        }
    }

    private void advance() {
        if (contiguousEnd < playHead) {
            contiguousEnd = playHead;
        }
        while (contiguousEnd < playHead + complete.length && complete[(int) (contiguousEnd % complete.length)]) {
            contiguousEnd++;
        }
    }

    private void tick() {
        int slot = (int) (playHead % complete.length);
        if (complete[slot]) {
            metrics.framesPlayed++;
            inStall = false;
        } else {
            metrics.framesDropped++;
            if (!inStall) {
                metrics.stalls++;
                inStall = true;
            }
        }
        complete[slot] = false;
        playHead++;
        advance();
        long ahead = contiguousEnd - playHead;
        metrics.lookAhead.recordValue(ahead);
        if (warmed) {
            minLookAheadSinceSnapshot = Math.min(minLookAheadSinceSnapshot, ahead);
        } else if (ahead >= warmLookAhead) {
            warmed = true;
        }
        for (HttpConnection c : connections) {
            c.wake();
        }
    }

    /** Checks the connections for overdue fetches. */
    void checkTimeouts(long now) {
        for (HttpConnection c : connections) {
            c.checkTimeout(now);
        }
    }

    boolean warmed() {
        return warmed;
    }

    boolean playing() {
        return playing;
    }

    /** The lowest look-ahead since the last call while warmed (Long.MAX_VALUE if none), and resets it. */
    long takeMinLookAhead() {
        long m = minLookAheadSinceSnapshot;
        minLookAheadSinceSnapshot = Long.MAX_VALUE;
        return m;
    }

    void stop() {
        if (ticker != null) {
            ticker.cancel(false);
        }
        connections.forEach(HttpConnection::stop);
    }
}
