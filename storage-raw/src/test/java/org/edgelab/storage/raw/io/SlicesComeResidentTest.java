package org.edgelab.storage.raw.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The raw engines lend a file slice with its bytes in memory: the event loop that sends it then copies memory and
 * does not wait for the device. An object whose pages were dropped from the page cache (counted with
 * {@code mincore(2)}) is resident again, page for page, once a slice of it is handed out; and the engine says the
 * call blocks, so a server makes it off its loops. The same with either {@code read-ahead} setting: {@code off}
 * brings exactly the slice in ({@code WILLNEED}), {@code kernel} lets the reader's own open file read ahead.
 */
class SlicesComeResidentTest {

    private static final long SIZE = 3 << 20;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"raw-log, disks, off", "raw-log, disks, kernel", "raw-files, dir, off", "raw-files, dir, kernel"})
    void aSliceOfAnObjectNoLongerInMemoryComesResident(String engine, String placeSetting, String readAhead)
            throws Exception {
        PageCacheProbe.assumeDevice(dir);
        try (ObjectStore store = StorageEngines.open(engine, PluginSettings.of(placeSetting,
                dir.resolve("store").toString(), "capacity", "64m", "read-ahead", readAhead))) {
            assertThat(store.blockingCalls()).contains(StoreCall.FILE_SLICE);
            CacheKey key = CacheKey.of("cold");
            StoreFixtures.put(store, key, TestContent.seed(key.value()), SIZE, 64 << 10);
            try (StoredObject o = store.lookup(key).orElseThrow()) {
                Optional<FileSlice> first = o.fileSlice(0, SIZE);
                Assumptions.assumeTrue(first.isPresent(), engine + " lends no file slices here: " + store.stats());
                FileSlice s = first.get();
                s.channel().force(false); // dirty pages cannot be dropped
                FileAdvice.advise(s.channel(), FileAdvice.DONTNEED);
                assertThat(PageCacheProbe.resident(s.channel(), s.position(), s.length()))
                        .as("pages of the slice resident once dropped").isZero();

                FileSlice again = o.fileSlice(0, SIZE).orElseThrow();
                assertThat(PageCacheProbe.resident(again.channel(), again.position(), again.length()))
                        .as("pages of the slice resident when it is handed out")
                        .isEqualTo(PageCacheProbe.pages(again.position(), again.length()));
                StoreFixtures.verifyFileSlices(o, TestContent.seed(key.value()), 0, SIZE, SIZE);
            }
        }
    }
}
