package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plugin: found by name, opened with only disks and capacity, and clear about bad settings. */
class RawLogEngineTest {

    @TempDir
    Path dir;

    @Test
    void opensByNameWithOnlyDisksAndCapacity() throws Exception {
        assertThat(StorageEngines.names()).contains("raw-log");
        assertThat(StorageEngines.get("raw-log").settings()).extracting(Setting::name)
                .containsExactly("disks", "capacity", "segment-size", "policy", "sync", "checkpoint-interval", "direct-io",
                        "read-ahead", "disk-probe-interval", "verify");
        try (ObjectStore store = StorageEngines.open("raw-log",
                PluginSettings.of("disks", dir.resolve("a").toString(), "capacity", "64m"))) {
            assertThat(store.engineName()).isEqualTo("raw-log");
            assertThat(store.usage().capacityBytes()).isEqualTo(64L << 20);
            assertThat(store.stats().extra()).containsEntry("segmentSize", 1L << 20).containsEntry("policy", "reinsert")
                    .containsEntry("sync", "none").containsEntry("readAhead", "off (POSIX_FADV_RANDOM)");
            CacheKey k = CacheKey.of("k");
            StoreFixtures.put(store, k, TestContent.seed("k"), 1000, 1000);
        }
    }

    @Test
    void defaultSegmentSizeIs64MiBForLargeCaches() {
        RawLogConfig c = RawLogConfig.from(PluginSettings.of("disks", dir.toString(), "capacity", "100g"));
        assertThat(c.segmentSize()).isEqualTo(64L << 20);
        assertThat(c.segmentCount()).isEqualTo(1600);
        assertThat(c.diskProbeIntervalMillis()).as("a failed disk is probed every second by default").isEqualTo(1000);
        assertThat(RawLogConfig.from(PluginSettings.of("disks", dir.toString(), "disk-probe-interval", "0"))
                .diskProbeIntervalMillis()).isZero();
        assertThat(RawLogConfig.from(PluginSettings.of("disks", dir.toString(), "disk-probe-interval", "250ms"))
                .diskProbeIntervalMillis()).isEqualTo(250);
    }

    @Test
    void badSettingsFailWithMessagesThatSayWhatToDo() {
        assertThatThrownBy(() -> StorageEngines.open("raw-log", PluginSettings.of("capacity", "1g")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'disks' is required");
        assertThatThrownBy(() -> StorageEngines.open("raw-log", PluginSettings.of("disks", dir.toString(), "colour", "red")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("colour");
        assertThatThrownBy(() -> RawLogConfig.from(PluginSettings.of("disks", dir.toString(), "policy", "lru")))
                .hasMessageContaining("policy").hasMessageContaining("fifo, reinsert");
        assertThatThrownBy(() -> RawLogConfig.from(PluginSettings.of("disks", dir.toString(), "sync", "sometimes")))
                .hasMessageContaining("commit, interval, none");
        assertThatThrownBy(() -> RawLogConfig.from(PluginSettings.of("disks", dir.toString(), "capacity", "100m",
                "segment-size", "64m"))).hasMessageContaining("raise capacity or lower segment-size");
        assertThatThrownBy(() -> RawLogConfig.from(PluginSettings.of("disks", dir.toString(), "segment-size", "1000")))
                .hasMessageContaining("multiple of 4 KiB");
        assertThatThrownBy(() -> RawLogConfig.from(PluginSettings.of("disks", dir.toString(), "checkpoint-interval",
                "often"))).hasMessageContaining("checkpoint-interval");
    }

    @Test
    void reopeningWithAnotherLayoutFailsInsteadOfMisreadingTheDisk() throws Exception {
        PluginSettings first = PluginSettings.of("disks", dir.toString(), "capacity", "16m", "segment-size", "1m");
        StorageEngines.open("raw-log", first).close();
        assertThatThrownBy(() -> StorageEngines.open("raw-log", first.with("segment-size", "2m")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was formatted as")
                .hasMessageContaining("empty the directory");
        StorageEngines.open("raw-log", first).close();
    }
}
