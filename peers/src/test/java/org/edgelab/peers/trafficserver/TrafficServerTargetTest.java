package org.edgelab.peers.trafficserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.edgelab.experiments.target.RunningTarget;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerRestart;
import org.edgelab.experiments.target.TargetContext;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.peers.PeerTargetContract;
import org.junit.jupiter.api.Test;

/** Traffic Server with a cache file in the store, for real on loopback. */
class TrafficServerTargetTest extends PeerTargetContract {

    @Override
    protected ServerBuild build() {
        return build("trafficserver", "file", Map.of("size", "64MiB", "ram", "16MiB"));
    }

    /**
     * Its cache directory, the only index of what lies where in the store, is written to the store every
     * {@code dir_sync}: after a SIGKILL an object stored before the last write is a hit again (read from the store:
     * the RAM cache starts empty), while with the default of 60 s, none written yet, the restarted server has an
     * empty cache. The {@code restart} experiment's Traffic Server refetched its whole set for that reason.
     */
    @Test
    void afterACrashTheCacheIsWhatItsLastDirectorySyncWrote() throws Exception {
        // 2.5 s: at least two syncs of 1 s after the object was stored
        assertThat(fetchAfterACrash("synced", Map.of("dir_sync", "1s"), Duration.ofMillis(2500))).startsWith("HIT");
        assertThat(fetchAfterACrash("default", Map.of(), Duration.ZERO)).isEqualTo("MISS");
    }

    @Test
    void aDirectorySyncThatIsNotWholeSecondsIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> target().validate(build("trafficserver", "file",
                        Map.of("size", "64MiB", "dir_sync", "500ms"))))
                .isInstanceOf(org.edgelab.experiments.target.BuildValidationException.class).hasMessageContaining("dir_sync");
        assertThat(TrafficServerTarget.dirSyncSeconds(org.edgelab.plugin.PluginSettings.of("dir_sync", "2m"))).isEqualTo(120);
    }

    private String fetchAfterACrash(String name, Map<String, String> extra, Duration wait) throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of("size", "64MiB", "ram", "16MiB"));
        settings.putAll(extra);
        ServerBuild build = build("trafficserver", "file", settings);
        target().validate(build);
        TargetContext context = new TargetContext(dir.resolve(name).resolve("store"), dir.resolve(name).resolve("work"), 1, 0,
                Duration.ofSeconds(30));
        try (RunningTarget running = target().start(build, context)) {
            String path = SyntheticPaths.path("crash-" + name, SIZE);
            assertThat(fetch(running, path, null, 0)).isEqualTo("MISS");
            assertThat(fetch(running, path, null, 0)).startsWith("HIT");
            Thread.sleep(wait.toMillis());
            ServerRestart restart = running.restart().orElseThrow();
            restart.kill();
            restart.start();
            return fetch(running, path, null, 0);
        }
    }
}
