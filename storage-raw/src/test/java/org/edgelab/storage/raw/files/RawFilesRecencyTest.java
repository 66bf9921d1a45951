package org.edgelab.storage.raw.files;

import static org.edgelab.storage.contract.RecencyScenario.FIT;
import static org.edgelab.storage.contract.RecencyScenario.SIZE;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.RecencyScenario;
import org.edgelab.storage.contract.StoreFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restarted raw-files store evicts what was used least recently before it stopped, not what was written first, as
 * {@link RecencyScenario} checks: ten objects fill the store; the five written first are read again; after a restart
 * five new objects evict five: the five not read. Before the recency file the rebuilt index ordered objects by when
 * their files were written, so the five read were evicted (the restart experiment lost 27 % of its hot set at 1 MB
 * that way, 2026-12-06).
 */
class RawFilesRecencyTest {

    /**
     * Without a usable recency file the order falls back on the files' modification times (too coarse here to assert
     * which go first): the reopened store, which the scenario finds holds every object, serves one of them whole.
     */
    private static final RecencyScenario.Check ALL_THERE = store -> RecencyScenario.assertHolds(store, 7);

    @TempDir
    Path dir;

    private final RecencyScenario scenario = new RecencyScenario(RawFilesRecencyTest::open, RawFilesStore.RECENCY_FILE);

    /** A store at {@code at} that holds {@link RecencyScenario#FIT} objects and a half, written at close only. */
    private static ObjectStore open(Path at, String... extra) throws Exception {
        long file = ObjectFileHeader.lengthFor(RecencyScenario.key("w", 0), StoreFixtures.metadata(SIZE)) + SIZE;
        return StorageEngines.open("raw-files", PluginSettings.of("dir", at.toString(), "capacity",
                String.valueOf(FIT * file + file / 2), "recency-interval", "0").withAll(PluginSettings.of(extra)));
    }

    @Test
    void afterACloseAndReopenTheObjectsReadLastAreKept() throws Exception {
        scenario.afterACloseAndReopen(dir);
    }

    @Test
    void afterACrashTheOrderIsAsOfTheLastPeriodicWrite() throws Exception {
        // what a SIGKILL leaves on disk: the directory as it is, the store never closed
        scenario.afterACrash(dir.resolve("live"), dir.resolve("copy"), "raw-files.lock", store -> { });
    }

    @Test
    void aDamagedRecencyFileIsIgnoredAndTheStoreOpens() throws Exception {
        scenario.withADamagedFile(dir, ALL_THERE);
    }

    @Test
    void withoutARecencyFileTheStoreOpens() throws Exception {
        scenario.withoutAFile(dir, ALL_THERE);
    }
}
