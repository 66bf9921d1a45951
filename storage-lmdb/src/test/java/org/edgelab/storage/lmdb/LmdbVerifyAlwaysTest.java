package org.edgelab.storage.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.DamagedFileScenario;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify=always} on a real store whose value bytes in {@code data.mdb} are damaged while it is
 * open, in an object this process wrote (which {@code once} trusts): every chunk a reader reads or
 * views is checked first, so the bytes well before the damage are served, the damaged chunk is
 * never lent nor copied, and the object is dropped at once and can be stored again.
 */
class LmdbVerifyAlwaysTest {

    private static final int CHUNK = 64 << 10;
    private static final long SIZE = 40L * CHUNK;
    private static final long DAMAGE_AT = 30L * CHUNK + 1000;

    @Test
    void aChunkDamagedWhileTheStoreRunsIsNeverServedAndItsObjectIsDropped(@TempDir Path dir) throws Exception {
        Logger log = Logger.getLogger(LmdbStore.class.getName());
        List<String> warnings = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                warnings.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(handler);
        try {
            damagedWhileOpen(dir);
        } finally {
            log.removeHandler(handler);
        }
        assertThat(warnings.stream().filter(w -> w.startsWith("dropping"))).as("the drop is logged once, not per reader")
                .hasSize(1);
    }

    private static void damagedWhileOpen(Path dir) throws Exception {
        CacheKey key = CacheKey.of("always");
        long seed = TestContent.seed(key.value());
        try (ObjectStore store = StorageEngines.open(LmdbEngine.NAME, PluginSettings.of("path", dir.toString(),
                "capacity", "64m", "map-size", "256m", "chunk-size", "64KiB", "verify", "always"))) {
            StoreFixtures.put(store, key, seed, SIZE, CHUNK);
            byte[] pattern = new byte[64];
            TestContent.chunk(seed, DAMAGE_AT, pattern.length).get(pattern);
            assertThat(DamagedFileScenario.flipBytes(dir, pattern).getFileName().toString()).isEqualTo(LmdbStore.DATA_FILE);

            try (StoredObject o = store.lookup(key).orElseThrow()) {
                StoreFixtures.verifyRead(o, seed, 0, DAMAGE_AT - 2 * CHUNK, CHUNK);
                assertThat(o.view(DAMAGE_AT, 100)).as("the damaged chunk is not lent").isEmpty();
                assertThatThrownBy(() -> o.read(DAMAGE_AT, ByteBuffer.allocate(100)))
                        .isInstanceOf(CorruptObjectException.class).hasMessageContaining("fails its CRC32C");
            }
            assertThat(store.stats().corruptObjectsDropped()).isEqualTo(1);
            assertThat(store.lookup(key)).as("dropped").isEqualTo(Optional.empty());
            StoreFixtures.put(store, key, seed, SIZE, CHUNK);
            try (StoredObject o = store.lookup(key).orElseThrow()) {
                StoreFixtures.verifyRead(o, seed, 0, SIZE, CHUNK);
            }
        }
    }
}
