package org.edgelab.loadgen.video;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import org.HdrHistogram.Histogram;
import org.edgelab.loadgen.client.HttpConnection;
import org.edgelab.loadgen.link.Link;
import org.edgelab.loadgen.link.LinkEmulators;
import org.edgelab.transport.Transport;
import org.edgelab.loadgen.measure.Counters;

/**
 * Runs playback streams on a group of event loops; streams can be added and removed while others play (stream
 * {@code i} always plays object {@code namespace + i}, so a stream removed and added again plays the same object),
 * and {@link #window()} ends a measurement window and returns what happened in it.
 *
 * <p>Thread-safety: the public methods are called from one controlling thread; streams live on the loops.
 */
final class VideoEngine implements AutoCloseable {
    private final VideoConfig config;
    private final EventLoopGroup group;
    private final List<EventLoop> loops = new ArrayList<>();
    private final List<VideoLoopMetrics> metrics = new ArrayList<>();
    private final List<List<PlaybackStream>> streams = new ArrayList<>();
    /** The playing streams by index; stream i runs on loop i % loops. */
    private final List<PlaybackStream> byIndex = new ArrayList<>();
    private final List<ScheduledFuture<?>> sweepers = new ArrayList<>();
    private final Bootstrap template;
    private final HttpConnection.Settings settings;
    private final Link link;
    private final String pathPrefix;
    private final Histogram[] recycledLatency;
    private final Histogram[] recycledLookAhead;
    private Counters lastHttp = Counters.ZERO;
    private long[] lastFrames = new long[4];
    private long windowStart = System.nanoTime();
    private int count;

    VideoEngine(VideoConfig config) {
        this.config = config;
        int port = config.url().getPort() < 0 ? 80 : config.url().getPort();
        InetSocketAddress address = new InetSocketAddress(config.url().getHost(), port);
        String host = config.url().getHost() + (config.url().getPort() < 0 ? "" : ":" + port);
        // frames are never dated: the late-start threshold does not apply
        this.link = LinkEmulators.open(config.link()); // one link shared by every stream
        this.settings = new HttpConnection.Settings(host, java.util.List.of(), config.timeout().toNanos(), 0, config.verify(), link);
        String p = config.url().getRawPath() == null ? "" : config.url().getRawPath();
        this.pathPrefix = p.replaceAll("/+$", "");
        this.group = Transport.preferred().newGroup(config.threads(), "loadgen-video");
        this.template = HttpConnection.bootstrap(group, address, config.timeout());
        for (EventExecutor e : group) {
            EventLoop loop = (EventLoop) e;
            loops.add(loop);
            metrics.add(new VideoLoopMetrics());
            List<PlaybackStream> mine = new ArrayList<>();
            streams.add(mine);
            long sweep = TimeUnit.MILLISECONDS.toNanos(20);
            sweepers.add(loop.scheduleAtFixedRate(() -> {
                long now = System.nanoTime();
                for (PlaybackStream s : mine) {
                    s.checkTimeouts(now);
                }
            }, sweep, sweep, TimeUnit.NANOSECONDS));
        }
        this.recycledLatency = new Histogram[loops.size()];
        this.recycledLookAhead = new Histogram[loops.size()];
    }

    /** Starts {@code n} more streams. */
    void addStreams(int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            int index = count++;
            int l = index % loops.size();
            EventLoop loop = loops.get(l);
            byIndex.add(await(loop.submit(() -> {
                PlaybackStream s = new PlaybackStream(config, index, metrics.get(l), loop, template, settings, pathPrefix);
                streams.get(l).add(s);
                s.start();
                return s;
            })));
        }
    }

    /** Stops the streams of the highest indices until {@code n} play (their unfinished frames are not errors). */
    void removeStreams(int n) throws InterruptedException {
        while (count > n) {
            int index = --count;
            int l = index % loops.size();
            PlaybackStream s = byIndex.remove(index);
            await(loops.get(l).submit(() -> {
                s.stop();
                streams.get(l).remove(s);
                return null;
            }));
        }
    }

    /** Adds or removes streams until {@code n} play. */
    void setStreams(int n) throws InterruptedException {
        if (n > count) {
            addStreams(n - count);
        } else {
            removeStreams(n);
        }
    }

    /** Streams playing now. */
    int streams() {
        return count;
    }

    /** Playing streams that have filled their look-ahead since they started. */
    int warmedStreams() throws InterruptedException {
        int warmed = 0;
        for (int i = 0; i < loops.size(); i++) {
            List<PlaybackStream> mine = streams.get(i);
            warmed += await(loops.get(i).submit(() -> (int) mine.stream().filter(PlaybackStream::warmed).count()));
        }
        return warmed;
    }

    /** Ends the current window and returns its figures; the next window starts now. */
    VideoPhase window() throws InterruptedException {
        long now = System.nanoTime();
        Histogram latency = new Histogram(3);
        Histogram lookAhead = new Histogram(3);
        Counters http = Counters.ZERO;
        long[] frames = new long[4];
        long minLookAhead = Long.MAX_VALUE;
        int warmed = 0;
        for (int i = 0; i < loops.size(); i++) {
            VideoLoopMetrics m = metrics.get(i);
            List<PlaybackStream> mine = streams.get(i);
            LoopWindow state = await(loops.get(i).submit(() -> {
                long min = Long.MAX_VALUE;
                long w = 0;
                for (PlaybackStream s : mine) {
                    min = Math.min(min, s.takeMinLookAhead());
                    if (s.warmed()) {
                        w++;
                    }
                }
                return new LoopWindow(new long[] {m.framesFetched, m.framesPlayed, m.framesDropped, m.stalls, min, w},
                        m.http.snapshot());
            }));
            long[] loopState = state.frames();
            http = http.plus(state.http());
            for (int k = 0; k < 4; k++) {
                frames[k] += loopState[k];
            }
            minLookAhead = Math.min(minLookAhead, loopState[4]);
            warmed += (int) loopState[5];
            recycledLatency[i] = m.frameLatency.getIntervalHistogram(recycledLatency[i]);
            recycledLookAhead[i] = m.lookAhead.getIntervalHistogram(recycledLookAhead[i]);
            latency.add(recycledLatency[i]);
            lookAhead.add(recycledLookAhead[i]);
        }
        Counters windowHttp = http.minus(lastHttp);
        long[] delta = new long[4];
        for (int k = 0; k < 4; k++) {
            delta[k] = frames[k] - lastFrames[k];
        }
        lastHttp = http;
        lastFrames = frames;
        double seconds = (now - windowStart) / 1e9;
        windowStart = now;
        return new VideoPhase(count, seconds, latency, lookAhead, delta[0], delta[1], delta[2], delta[3], minLookAhead,
                warmed, windowHttp);
    }

    private record LoopWindow(long[] frames, Counters http) {
    }

    @Override
    public void close() throws InterruptedException {
        for (int i = 0; i < loops.size(); i++) {
            List<PlaybackStream> mine = streams.get(i);
            await(loops.get(i).submit(() -> mine.forEach(PlaybackStream::stop)));
        }
        sweepers.forEach(s -> s.cancel(false));
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        link.close();
    }

    private static <T> T await(io.netty.util.concurrent.Future<T> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("event loop task failed", e.getCause());
        }
    }
}
