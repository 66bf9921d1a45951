package org.edgelab.experiments.workload;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.edgelab.loadgen.Schedule;
import org.edgelab.loadgen.video.HealthRule;
import org.edgelab.loadgen.video.VideoConfig;
import org.edgelab.loadgen.workload.RequestGenerator;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;
import org.edgelab.units.DataRate;

/**
 * The {@code video} workload: playback streams of synthetic objects at a constant bitrate, frame by frame
 * as byte ranges. Under the {@code matrix} experiment it is an open-loop load paced by the frame clock
 * ({@code streams} streams, each asking for frame f at f/fps seconds, staggered within a frame period),
 * so TTFB and TTLB are per frame. The {@code video-streams} experiment reads the same settings through
 * {@link #playback(PluginSettings)} for loadgen's look-ahead players and stream-count search.
 * Stateless and thread-safe.
 */
public final class VideoWorkload implements WorkloadPlugin {

    private static final List<Setting> SETTINGS = List.of(
            new Setting("bitrate", "70MB/s", "rate each stream plays, e.g. 70MB/s or 560Mbit/s (report C: ~70 MB/s UHD ProRes 422)"),
            new Setting("fps", "30", "frames per second; a frame is bitrate / fps bytes"),
            new Setting("frames_per_object", "900", "frames in each stream's object before playback wraps around"),
            new Setting("working_set", null, "a library of this many bytes of stream objects (frames_per_object each) that every"
                    + " stream plays in turn from a start spread over it, so streams do not re-read a small object of their own"
                    + " (default: each stream loops over an object of its own)"),
            new Setting("look_ahead_frames", "600", "most complete frames a player keeps ahead of its play head"),
            new Setting("startup_frames", null, "complete frames before playback starts (default: min(look-ahead, min_look_ahead_frames))"),
            new Setting("fetches_per_stream", "4", "concurrent frame fetches (connections) per player"),
            new Setting("max_prefetch_p99", "30ms", "health: frame prefetch latency p99 at most this"),
            new Setting("min_look_ahead_frames", "300", "health: a warmed player's look-ahead never below this"),
            new Setting("max_dropped_frames", "0", "health: at most this many dropped frames"),
            new Setting("streams", "1", "matrix experiment only: streams paced by the frame clock"));

    /**
     * The playback settings, parsed. Immutable and thread-safe.
     *
     * @param bitrateBytesPerSecond bytes per second per stream
     * @param fps                   frames per second
     * @param framesPerObject       frames per stream object
     * @param lookAheadFrames       look-ahead window of a player
     * @param startupFrames         frames before playback starts, or -1 for loadgen's default
     * @param fetchesPerStream      connections per player
     * @param health                the health rule of a step of the search
     * @param streams               streams of the paced matrix load
     * @param objects               objects of the shared library ({@code working_set}), 0 for an object per stream
     */
    public record Playback(long bitrateBytesPerSecond, int fps, int framesPerObject, int lookAheadFrames,
                           int startupFrames, int fetchesPerStream, HealthRule health, int streams, int objects) {

        /** Bytes of one stream object. */
        public long objectBytes() {
            return frameBytes() * framesPerObject;
        }

        /** Bytes per frame. */
        public long frameBytes() {
            return Math.max(1, bitrateBytesPerSecond / fps);
        }

        /** Applies these settings to a loadgen video configuration. */
        public VideoConfig.Builder apply(VideoConfig.Builder b) {
            b.bitrateBytesPerSecond(bitrateBytesPerSecond).fps(fps).framesPerObject(framesPerObject).objects(objects)
                    .lookAheadFrames(lookAheadFrames).fetchesPerStream(fetchesPerStream).health(health);
            if (startupFrames > 0) {
                b.startupFrames(startupFrames);
            }
            return b;
        }
    }

    @Override
    public String name() {
        return "video";
    }

    @Override
    public String description() {
        return "playback streams at a constant bitrate, frames as byte ranges (paced under matrix; look-ahead players under video-streams)";
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    @Override
    public PluginSettings prepare(PluginSettings settings, Path descriptorDirectory) {
        settings.requireOnly("workload 'video'", SETTINGS);
        playback(settings);
        return settings;
    }

    /** Parses the settings; throws {@code SettingException} naming a bad key. */
    public static Playback playback(PluginSettings s) {
        long bitrate = s.rate("bitrate", DataRate.ofBytesPerSecond(70_000_000L)).wholeBytesPerSecond();
        if (bitrate < 1) {
            throw new SettingException("bitrate", "must be at least 1 byte per second");
        }
        int fps = s.integer("fps", 30, 1, 1000);
        int lookAhead = s.integer("look_ahead_frames", 600, 1, 1_000_000);
        int minLookAhead = s.integer("min_look_ahead_frames", 300, 0, 1_000_000);
        int startup = s.has("startup_frames") ? s.integer("startup_frames", -1, 1, lookAhead) : -1;
        if (minLookAhead > lookAhead) {
            throw new SettingException("min_look_ahead_frames", "the health rule's look-ahead (" + minLookAhead
                    + ") cannot exceed look_ahead_frames (" + lookAhead + "): no player could ever be healthy");
        }
        Duration p99 = s.duration("max_prefetch_p99", Duration.ofMillis(30));
        if (p99.isZero()) {
            throw new SettingException("max_prefetch_p99", "must be more than 0");
        }
        HealthRule health = new HealthRule(p99, minLookAhead, s.integer("max_dropped_frames", 0, 0, Integer.MAX_VALUE));
        int framesPerObject = s.integer("frames_per_object", 900, 1, 10_000_000);
        int objects = 0;
        if (s.has("working_set")) {
            long objectBytes = Math.max(1, bitrate / fps) * framesPerObject;
            long set = s.bytes("working_set", 0);
            if (set < objectBytes) {
                throw new SettingException("working_set", "must hold at least one stream object of " + objectBytes
                        + " bytes (frames_per_object x frame bytes), got " + set);
            }
            long n = (set + objectBytes - 1) / objectBytes;
            if (n > 1_000_000) {
                throw new SettingException("working_set", "gives " + n + " stream objects; at most 1000000 (raise frames_per_object)");
            }
            objects = (int) n;
        }
        return new Playback(bitrate, fps, framesPerObject, lookAhead, startup,
                s.integer("fetches_per_stream", 4, 1, 64), health, s.integer("streams", 1, 1, 100_000), objects);
    }

    @Override
    public Workload create(WorkloadRequest request) {
        return new PacedFrames(playback(request.settings()), request.namespace());
    }

    @Override
    public String method() {
        return "video frames as byte ranges, open loop paced by the frame clock (no warm-up pass)";
    }

    /** Frame f of stream s is request f * streams + s, due at (f + s / streams) / fps seconds. */
    private record PacedFrames(Playback p, String namespace) implements Workload {

        @Override
        public RequestGenerator newGenerator(long seed) {
            long frameBytes = p.frameBytes();
            long objectSize = frameBytes * p.framesPerObject();
            return (ticket, slot) -> {
                long stream = ticket % p.streams();
                long frame = ticket / p.streams();
                String id = namespace + "v" + VideoConfig.objectOf(p.objects(), p.framesPerObject(), stream, frame);
                long offset = (frame % p.framesPerObject()) * frameBytes;
                slot.range(SyntheticPaths.path(id, objectSize), id, objectSize, offset, offset + frameBytes - 1);
            };
        }

        @Override
        public Schedule schedule() {
            double period = 1e9 / p.fps();
            int streams = p.streams();
            return new Schedule() {
                @Override
                public long offsetNanos(long ticket) {
                    return (long) ((ticket / streams + (double) (ticket % streams) / streams) * period);
                }

                @Override
                public String describe() {
                    return streams + " streams at " + p.fps() + " frames/s";
                }
            };
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "video: %d streams at %.1f MB/s, %d fps (%d-byte frames as ranges), paced",
                    p.streams(), p.bitrateBytesPerSecond() / 1e6, p.fps(), p.frameBytes());
        }
    }
}
