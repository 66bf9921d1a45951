package org.edgelab.loadgen.video;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

import org.edgelab.loadgen.LinkEmulation;

/**
 * Video playback load: each stream plays a synthetic object at {@code bitrate} bytes/s as {@code fps}
 * frames per second, fetching frames as byte ranges over {@code fetchesPerStream} connections and
 * keeping up to {@code lookAheadFrames} complete frames ahead of the play head. Playback starts once
 * {@code startupFrames} frames are complete. A stream is warmed once its look-ahead first reaches
 * {@code lookAheadFrames}.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}.
 */
public final class VideoConfig {
    private final URI url;
    private final int streams;
    private final int threads;
    private final long bitrateBytesPerSecond;
    private final int fps;
    private final int lookAheadFrames;
    private final int startupFrames;
    private final int fetchesPerStream;
    private final int framesPerObject;
    private final int objects;
    private final Duration duration;
    private final Duration timeout;
    private final LinkEmulation link;
    private final HealthRule health;
    private final boolean verify;
    private final String namespace;

    private VideoConfig(Builder b) {
        this.url = b.url;
        this.streams = b.streams;
        this.threads = b.threads;
        this.bitrateBytesPerSecond = b.bitrate;
        this.fps = b.fps;
        this.lookAheadFrames = b.lookAheadFrames;
        this.startupFrames = b.startupFrames < 0 ? Math.min(b.lookAheadFrames, Math.max(1, b.health.minLookAheadFrames())) : b.startupFrames;
        this.fetchesPerStream = b.fetchesPerStream;
        this.framesPerObject = b.framesPerObject;
        this.objects = b.objects;
        this.duration = b.duration;
        this.timeout = b.timeout;
        this.link = b.link;
        this.health = b.health;
        this.verify = b.verify;
        this.namespace = b.namespace;
    }

    /** Defaults: 70 MB/s at 30 fps, 600 frames look-ahead, 4 fetches per stream, 1 stream, 10 s. */
    public static Builder builder() {
        return new Builder();
    }

    /** Base URL of the server (its path prefixes {@code /objects/...}). */
    public URI url() {
        return url;
    }

    /** Streams of a plain run (the search's starting count). */
    public int streams() {
        return streams;
    }

    /** Event-loop threads. */
    public int threads() {
        return threads;
    }

    /** Playback rate in bytes per second. */
    public long bitrateBytesPerSecond() {
        return bitrateBytesPerSecond;
    }

    /** Frames per second. */
    public int fps() {
        return fps;
    }

    /** Bytes per frame: bitrate / fps. */
    public long frameBytes() {
        return Math.max(1, bitrateBytesPerSecond / fps);
    }

    /** Most complete frames kept ahead of the play head. */
    public int lookAheadFrames() {
        return lookAheadFrames;
    }

    /** Complete frames needed before playback starts. */
    public int startupFrames() {
        return startupFrames;
    }

    /** Concurrent frame fetches (connections) per stream. */
    public int fetchesPerStream() {
        return fetchesPerStream;
    }

    /** Frames in each stream's object; playback wraps around after the last. */
    public int framesPerObject() {
        return framesPerObject;
    }

    /**
     * The shared library of stream objects ({@code namespace + k}, k below this) every stream plays in turn, from a
     * start spread over the library by its index, moving to the next object at each object's end; 0 (the default):
     * stream i loops over an object of its own, {@code namespace + i}.
     */
    public int objects() {
        return objects;
    }

    /** The object stream {@code index} plays at its frame {@code frame} ({@link #objects()}). */
    public long objectOf(int index, long frame) {
        return objectOf(objects, framesPerObject, index, frame);
    }

    /** {@link #objectOf(int, long)} for a library of {@code objects} objects of {@code framesPerObject} frames. */
    public static long objectOf(int objects, int framesPerObject, long index, long frame) {
        if (objects == 0) {
            return index;
        }
        // a Weyl sequence: any number of streams start spread about evenly over the library
        long start = (long) Math.floor(((index * 0.6180339887498949) % 1.0) * objects);
        return (start + frame / framesPerObject) % objects;
    }

    /** Length of a plain run. */
    public Duration duration() {
        return duration;
    }

    /** A frame fetch not complete this long after it was sent counts as a timeout. */
    public Duration timeout() {
        return timeout;
    }

    /** Per-connection link emulation. */
    public LinkEmulation link() {
        return link;
    }

    /** The health rule. */
    public HealthRule health() {
        return health;
    }

    /** Verify every frame byte. */
    public boolean verify() {
        return verify;
    }

    /** Object id prefix of the streams' objects. */
    public String namespace() {
        return namespace;
    }

    /** A one-line description. */
    public String describe() {
        return String.format(Locale.ROOT, "%d streams at %.1f MB/s, %d fps (%d-byte frames), look-ahead %d frames, "
                        + "startup %d frames, %d fetches per stream, %s, link %s", streams, bitrateBytesPerSecond / 1e6, fps,
                frameBytes(), lookAheadFrames, startupFrames, fetchesPerStream, objects == 0 ? "an object per stream"
                        : "a library of " + objects + " objects played in turn", link.describe());
    }

    /** Builds a {@link VideoConfig}; not thread-safe; setters validate at once. */
    public static final class Builder {
        private URI url;
        private int streams = 1;
        private int threads = 2;
        private long bitrate = 70_000_000L;
        private int fps = 30;
        private int lookAheadFrames = 600;
        private int startupFrames = -1;
        private int fetchesPerStream = 4;
        private int framesPerObject = 900;
        private int objects;
        private Duration duration = Duration.ofSeconds(10);
        private Duration timeout = Duration.ofSeconds(5);
        private LinkEmulation link = LinkEmulation.NONE;
        private HealthRule health = HealthRule.DEFAULT;
        private boolean verify = true;
        private String namespace = "video";

        private Builder() {
        }

        /** Server base URL (http). */
        public Builder url(String url) {
            URI u = URI.create(url);
            if (!"http".equalsIgnoreCase(u.getScheme()) || u.getHost() == null) {
                throw new IllegalArgumentException("'" + url + "': expected an http:// URL with a host");
            }
            this.url = u;
            return this;
        }

        /** Streams (>= 1). */
        public Builder streams(int streams) {
            this.streams = positive(streams, "streams");
            return this;
        }

        /** Event-loop threads (>= 1). */
        public Builder threads(int threads) {
            this.threads = positive(threads, "threads");
            return this;
        }

        /** Bytes per second each stream plays (> 0). */
        public Builder bitrateBytesPerSecond(long bitrate) {
            if (bitrate <= 0) {
                throw new IllegalArgumentException("bitrate must be > 0 bytes/s, got " + bitrate);
            }
            this.bitrate = bitrate;
            return this;
        }

        /** Frames per second (1..1000). */
        public Builder fps(int fps) {
            if (fps < 1 || fps > 1000) {
                throw new IllegalArgumentException("fps must be in 1..1000, got " + fps);
            }
            this.fps = fps;
            return this;
        }

        /** Most frames kept ahead (>= 1). */
        public Builder lookAheadFrames(int frames) {
            this.lookAheadFrames = positive(frames, "look-ahead frames");
            return this;
        }

        /** Frames complete before playback starts (>= 1; default min(look-ahead, health look-ahead)). */
        public Builder startupFrames(int frames) {
            this.startupFrames = positive(frames, "startup frames");
            return this;
        }

        /** Concurrent fetches per stream (>= 1). */
        public Builder fetchesPerStream(int fetches) {
            this.fetchesPerStream = positive(fetches, "fetches per stream");
            return this;
        }

        /** Frames per object before playback wraps around (>= 1). */
        /** A shared library of {@code objects} stream objects (0: one object per stream); see {@link VideoConfig#objects()}. */
        public Builder objects(int objects) {
            if (objects < 0) {
                throw new IllegalArgumentException("objects must be >= 0, got " + objects);
            }
            this.objects = objects;
            return this;
        }

        public Builder framesPerObject(int frames) {
            this.framesPerObject = positive(frames, "frames per object");
            return this;
        }

        /** Length of a plain run (> 0). */
        public Builder duration(Duration duration) {
            if (duration == null || duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("duration must be > 0");
            }
            this.duration = duration;
            return this;
        }

        /** Frame fetch timeout (> 0). */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be > 0");
            }
            this.timeout = timeout;
            return this;
        }

        /** Per-connection link emulation. */
        public Builder link(LinkEmulation link) {
            this.link = Objects.requireNonNull(link, "link");
            return this;
        }

        /** The health rule. */
        public Builder health(HealthRule health) {
            this.health = Objects.requireNonNull(health, "health");
            return this;
        }

        /** Verify every frame byte (default true). */
        public Builder verify(boolean verify) {
            this.verify = verify;
            return this;
        }

        /** Object id prefix ([A-Za-z0-9._-]). */
        public Builder namespace(String namespace) {
            if (namespace == null || !namespace.matches("[A-Za-z0-9._-]{1,100}")) {
                throw new IllegalArgumentException("a namespace must be 1-100 characters of [A-Za-z0-9._-]");
            }
            this.namespace = namespace;
            return this;
        }

        /** The config; the URL is required and the look-ahead must cover the startup frames. */
        public VideoConfig build() {
            if (url == null) {
                throw new IllegalArgumentException("a server URL is required");
            }
            if (startupFrames > lookAheadFrames) {
                throw new IllegalArgumentException("startup frames (" + startupFrames + ") must be <= look-ahead frames ("
                        + lookAheadFrames + ")");
            }
            return new VideoConfig(this);
        }

        private static int positive(int v, String what) {
            if (v < 1) {
                throw new IllegalArgumentException(what + " must be >= 1, got " + v);
            }
            return v;
        }
    }
}
