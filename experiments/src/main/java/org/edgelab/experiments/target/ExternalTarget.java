package org.edgelab.experiments.target;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.edgelab.plugin.Setting;

/**
 * The {@code external} target: a server that is already running on this machine, reached at a loopback
 * URL (EdgeLab only sends traffic to loopback). EdgeLab starts and stops nothing; the build's
 * {@code engine} is only a label in results. Counters come from an EdgeLab {@code /stats} (or origin
 * {@code /_stats}) URL when one is given, else they are unknown; CPU is not measured. Stateless and
 * thread-safe.
 *
 * <p>target_settings: {@code url} (required: http://127.0.0.1:PORT, http://[::1]:PORT or
 * http://localhost:PORT), {@code stats_url} (optional, loopback), {@code synthetic} (default true: the URL
 * serves EdgeLab's synthetic objects at /objects/{size}/{id}, so every byte is verified; false turns
 * byte verification off), {@code disk} (default false: whether the power model counts disks as active).
 */
public final class ExternalTarget implements Target {

    /** The target settings this target understands. */
    static final List<Setting> SETTINGS = List.of(
            new Setting("url", null, "the server's loopback URL, e.g. http://127.0.0.1:6081 (required)"),
            new Setting("stats_url", null, "an EdgeLab /stats or origin /_stats URL for the server's counters"),
            new Setting("synthetic", "true", "whether the URL serves EdgeLab's synthetic objects (every byte verified)"),
            new Setting("disk", "false", "whether the power model counts the profile's disks as active"));
    /** The method label of CPU figures on this target. */
    public static final String CPU_METHOD = "external: not measured";
    /** How long {@link #start} waits for the URL to answer (the server is supposed to be up already). */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(3);

    private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "[::1]", "localhost");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Override
    public String name() {
        return "external";
    }

    @Override
    public String description() {
        return "a server already running at a loopback URL; EdgeLab starts nothing"
                + " (target_settings: url, stats_url, synthetic, disk)";
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    @Override
    public void validate(ServerBuild build) {
        Map<String, String> ts = build.targetSettings();
        TargetSettings.requireOnly(name(), ts, SETTINGS);
        URI url = loopbackUrl("url", TargetSettings.get(ts, "url").orElseThrow(() -> new BuildValidationException("target_settings",
                "the external target needs target_settings url, the server's loopback address, e.g. url: http://127.0.0.1:8080")));
        if (url.getRawPath() != null && !url.getRawPath().isEmpty() && !url.getRawPath().equals("/")) {
            throw new BuildValidationException("target_settings", "url " + url + " has a path; give the server's root"
                    + " (requests go to /objects/{size}/{id} on it)");
        }
        TargetSettings.get(ts, "stats_url").ifPresent(stats -> loopbackUrl("stats_url", stats));
        TargetSettings.flag(ts, "synthetic", true);
        TargetSettings.flag(ts, "disk", false);
    }

    /** Parses {@code text} and checks it is an http URL on loopback with a port. */
    static URI loopbackUrl(String key, String text) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new BuildValidationException("target_settings", key + " '" + text + "' is not a URL: " + e.getMessage());
        }
        String host = uri.getHost();
        if (!"http".equalsIgnoreCase(uri.getScheme()) || host == null || !LOOPBACK_HOSTS.contains(host.toLowerCase(java.util.Locale.ROOT))) {
            throw new BuildValidationException("target_settings", key + " '" + text + "' is not a loopback http URL: EdgeLab only sends"
                    + " traffic to loopback, so it must start with http://127.0.0.1, http://[::1] or http://localhost");
        }
        if (uri.getPort() < 0) {
            throw new BuildValidationException("target_settings", key + " '" + text + "' needs a port, e.g. http://127.0.0.1:8080");
        }
        if (uri.getUserInfo() != null) {
            throw new BuildValidationException("target_settings", key + " '" + text + "' must not carry user information");
        }
        return uri;
    }

    @Override
    public Optional<String> unavailableReason(ServerBuild build) {
        return Optional.empty();
    }

    @Override
    public boolean usesDisk(ServerBuild build) {
        return TargetSettings.flag(build.targetSettings(), "disk", false);
    }

    @Override
    public RunningTarget start(ServerBuild build, TargetContext context) throws IOException {
        validate(build);
        Map<String, String> ts = build.targetSettings();
        URI url = loopbackUrl("url", ts.get("url"));
        URI base = URI.create(url.getScheme() + "://" + url.getRawAuthority());
        awaitAnswer(base, min(context.startTimeout(), ANSWER_TIMEOUT));
        ServerStatsReader stats = TargetSettings.get(ts, "stats_url").map(s -> new ServerStatsReader(loopbackUrl("stats_url", s)))
                .orElse(null);
        if (stats != null) {
            try {
                stats.read();
            } catch (IOException e) {
                throw new IOException("stats_url of server '" + build.name() + "' cannot be read: " + e.getMessage(), e);
            }
        }
        return new Running(base, stats, TargetSettings.flag(ts, "synthetic", true));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    /** Waits until {@code GET base/} gets any HTTP answer; fails naming the URL otherwise. */
    private static void awaitAnswer(URI base, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException last;
        do {
            try {
                HTTP.send(HttpRequest.newBuilder(base.resolve("/")).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for " + base, e);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for " + base, e);
            }
        } while (System.nanoTime() < deadline);
        throw new IOException("nothing answers HTTP at " + base + " (" + describe(last) + ") within " + timeout.toSeconds()
                + " s: the external target starts nothing, so start the server first", last);
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    /** A server someone else runs: closing it does nothing. Thread-safe. */
    private static final class Running implements RunningTarget {
        private static final ServerCounters UNKNOWN = new ServerCounters(-1, -1, -1, -1, -1);

        private final URI clientUri;
        private final ServerStatsReader stats;
        private final boolean synthetic;

        Running(URI clientUri, ServerStatsReader stats, boolean synthetic) {
            this.clientUri = clientUri;
            this.stats = stats;
            this.synthetic = synthetic;
        }

        @Override
        public URI clientUri() {
            return clientUri;
        }

        @Override
        public ServerCounters counters() throws IOException {
            return stats == null ? UNKNOWN : stats.read();
        }

        @Override
        public CpuSample cpu() {
            return new CpuSample(Double.NaN, CPU_METHOD);
        }

        @Override
        public boolean syntheticContent() {
            return synthetic;
        }

        @Override
        public void close() {
            // started nothing, so stops nothing
        }
    }
}
