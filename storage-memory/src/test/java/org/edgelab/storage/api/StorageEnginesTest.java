package org.edgelab.storage.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.UnknownPluginException;
import org.junit.jupiter.api.Test;

class StorageEnginesTest {

    @Test
    void unknownEngineFailsListingTheKnownOnes() {
        assertThatThrownBy(() -> StorageEngines.get("nope"))
                .isInstanceOf(UnknownPluginException.class)
                .hasMessageContaining("unknown storage engine 'nope'")
                .hasMessageContaining("memory");
    }

    @Test
    void openChecksSettingsAgainstTheEngine() throws Exception {
        assertThat(StorageEngines.names()).contains("memory");
        assertThatThrownBy(() -> StorageEngines.open("memory", PluginSettings.of("capacity", "1m", "disks", "/x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("engine 'memory' has no setting 'disks'")
                .hasMessageContaining("capacity, chunk-size, policy");
        try (ObjectStore s = StorageEngines.open("memory", PluginSettings.of("capacity", "1m"))) {
            assertThat(s.engineName()).isEqualTo("memory");
            assertThat(s.usage().capacityBytes()).isEqualTo(1L << 20);
        }
    }
}
