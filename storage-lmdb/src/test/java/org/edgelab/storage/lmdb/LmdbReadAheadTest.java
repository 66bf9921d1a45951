package org.edgelab.storage.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.edgelab.plugin.PluginSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code read-ahead=off} (the default) opens the environment with {@code MDB_NORDAHEAD}, and the kernel holds
 * LMDB's map as randomly read ({@code rr} among the mapping's {@code VmFlags} in {@code /proc/self/smaps}:
 * {@code madvise(MADV_RANDOM)}, so a page fault reads only the page it touches); {@code kernel} leaves the map
 * with the kernel's read-around.
 */
class LmdbReadAheadTest {

    @TempDir
    Path dir;

    @Test
    void byDefaultTheMapIsAdvisedRandomSoFaultsReadNoMoreThanTheyTouch() throws IOException {
        LmdbSettings settings = LmdbSettings.from(PluginSettings.of(Map.of("path", dir.resolve("off").toString(), "map-size", "64MiB")));
        assertThat(settings.readAhead()).isFalse();
        try (LmdbStore store = LmdbStore.open(settings)) {
            assertThat(vmFlags(settings.path().resolve(LmdbStore.DATA_FILE))).contains("rr");
            assertThat(store.stats().extra().get("readAhead").toString()).startsWith("off (MDB_NORDAHEAD");
        }
    }

    @Test
    void readAheadKernelLeavesTheMapToTheKernelsReadAround() throws IOException {
        LmdbSettings settings = LmdbSettings.from(PluginSettings.of(Map.of("path", dir.resolve("kernel").toString(), "map-size", "64MiB", "read-ahead", "kernel")));
        try (LmdbStore store = LmdbStore.open(settings)) {
            assertThat(vmFlags(settings.path().resolve(LmdbStore.DATA_FILE))).doesNotContain("rr");
            assertThat(store.stats().extra()).containsEntry("readAhead", "kernel");
        }
    }

    @Test
    void aBadValueNamesTheAcceptedOnes() {
        assertThatThrownBy(() -> LmdbSettings.from(PluginSettings.of(Map.of("path", dir.toString(), "read-ahead", "on")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("engine setting 'read-ahead' must be off or kernel, got 'on'");
    }

    /** The VmFlags of this process's mapping of {@code file}, from /proc/self/smaps. */
    private static List<String> vmFlags(Path file) throws IOException {
        String name = file.toRealPath().toString();
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        boolean inside = false;
        for (String line : lines) {
            if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                inside = line.endsWith(" " + name);
            } else if (inside && line.startsWith("VmFlags:")) {
                return List.of(line.substring("VmFlags:".length()).trim().split("\\s+"));
            }
        }
        throw new AssertionError("no mapping of " + name + " in /proc/self/smaps");
    }
}
