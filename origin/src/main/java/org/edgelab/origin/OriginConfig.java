package org.edgelab.origin;

import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import org.edgelab.origin.fault.FaultRules;

/**
 * How an origin server runs: where it listens, what it serves (synthetic objects, or the files
 * under {@code filesRoot}), the Cache-Control it sends, per-response first-byte latency and
 * bandwidth, event-loop threads and configured faults. Immutable and thread-safe; build with
 * {@link #builder()}.
 *
 * @param host                    address to bind (default {@code 127.0.0.1})
 * @param port                    port to bind; 0 picks an ephemeral port
 * @param filesRoot               directory whose files are served instead of synthetic objects, or null
 * @param cacheControl            Cache-Control value of every object response (default {@code public, max-age=3600})
 * @param firstByteLatency        delay before each response's first byte (default zero)
 * @param bandwidthBytesPerSecond per-response bandwidth cap in bytes per second; 0 means unlimited
 * @param ioThreads               event-loop threads; 0 means one per core
 * @param faults                  faults applied to all requests (default none)
 * @param clock                   the wall clock of the {@code Date} header (default {@link InstantSource#system()};
 *                                tests share one they move forward with a cache in front)
 */
public record OriginConfig(String host, int port, Path filesRoot, String cacheControl, Duration firstByteLatency,
                           long bandwidthBytesPerSecond, int ioThreads, FaultRules faults, InstantSource clock) {

    /** The Cache-Control value sent when none is configured. */
    public static final String DEFAULT_CACHE_CONTROL = "public, max-age=3600";

    /** Validates every field and fills defaults for null host, cache control, latency, faults and clock. */
    public OriginConfig {
        host = host == null || host.isBlank() ? "127.0.0.1" : host;
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not in 0..65535");
        }
        cacheControl = cacheControl == null ? DEFAULT_CACHE_CONTROL : cacheControl;
        if (cacheControl.indexOf('\r') >= 0 || cacheControl.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("cache control must not contain line breaks");
        }
        firstByteLatency = firstByteLatency == null ? Duration.ZERO : firstByteLatency;
        if (firstByteLatency.isNegative()) {
            throw new IllegalArgumentException("first-byte latency must not be negative: " + firstByteLatency);
        }
        if (bandwidthBytesPerSecond < 0) {
            throw new IllegalArgumentException("bandwidth must be >= 0 bytes per second (0 = unlimited): " + bandwidthBytesPerSecond);
        }
        if (ioThreads < 0) {
            throw new IllegalArgumentException("io threads must be >= 0 (0 = one per core): " + ioThreads);
        }
        faults = faults == null ? FaultRules.none() : faults;
        clock = clock == null ? InstantSource.system() : clock;
    }

    /** A builder holding every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder().host(host).port(port).filesRoot(filesRoot).cacheControl(cacheControl)
                .firstByteLatency(firstByteLatency).bandwidthBytesPerSecond(bandwidthBytesPerSecond)
                .ioThreads(ioThreads).faults(faults).clock(clock);
    }

    /** True if the server serves the files under {@link #filesRoot()} rather than synthetic objects. */
    public boolean servesFiles() {
        return filesRoot != null;
    }

    /** Builds an {@link OriginConfig}; not thread-safe. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private Path filesRoot;
        private String cacheControl = DEFAULT_CACHE_CONTROL;
        private Duration firstByteLatency = Duration.ZERO;
        private long bandwidthBytesPerSecond;
        private int ioThreads;
        private FaultRules faults = FaultRules.none();
        private InstantSource clock = InstantSource.system();

        private Builder() {
        }

        /** Address to bind. */
        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /** Port to bind; 0 picks an ephemeral port. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Directory whose files are served, or null for synthetic objects. */
        public Builder filesRoot(Path filesRoot) {
            this.filesRoot = filesRoot;
            return this;
        }

        /** Cache-Control value of every object response. */
        public Builder cacheControl(String cacheControl) {
            this.cacheControl = cacheControl;
            return this;
        }

        /** Delay before each response's first byte. */
        public Builder firstByteLatency(Duration firstByteLatency) {
            this.firstByteLatency = firstByteLatency;
            return this;
        }

        /** Per-response bandwidth cap in bytes per second; 0 means unlimited. */
        public Builder bandwidthBytesPerSecond(long bandwidthBytesPerSecond) {
            this.bandwidthBytesPerSecond = bandwidthBytesPerSecond;
            return this;
        }

        /** Event-loop threads; 0 means one per core. */
        public Builder ioThreads(int ioThreads) {
            this.ioThreads = ioThreads;
            return this;
        }

        /** Faults applied to all requests. */
        public Builder faults(FaultRules faults) {
            this.faults = faults;
            return this;
        }

        /** The wall clock of the {@code Date} header. */
        public Builder clock(InstantSource clock) {
            this.clock = clock;
            return this;
        }

        /** The configuration; throws IllegalArgumentException for an invalid field. */
        public OriginConfig build() {
            return new OriginConfig(host, port, filesRoot, cacheControl, firstByteLatency, bandwidthBytesPerSecond,
                    ioThreads, faults, clock);
        }
    }
}
