package org.edgelab.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.CrashCheck;
import org.edgelab.storage.contract.CrashHarness;
import org.edgelab.storage.contract.CrashRun;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the crash harness itself on the memory engine: the child writes and is killed; as the
 * engine keeps nothing, a fresh store has none of the keys; verify catches a wrong byte.
 */
class MemoryCrashHarnessTest {

    @TempDir
    Path work;

    @Test
    void childWritesIsKilledAndAFreshMemoryStoreHasNothing() throws Exception {
        CrashRun run = CrashHarness.writeAndKill("memory", PluginSettings.of("capacity", "64m"),
                Duration.ofMillis(2000), 32L << 20, work);
        assertThat(run.killed()).as("child ended by SIGKILL, exit code " + run.exitCode()).isTrue();
        assertThat(run.committedCount()).as("objects the child committed; its errors: " + run.childErrors()).isPositive();
        assertThat(run.highestIndex()).isGreaterThanOrEqualTo(run.committedCount() - 1);
        run.committed().forEach((key, size) ->
                assertThat(size).isEqualTo(CrashHarness.sizeOf(Integer.parseInt(key.substring("crash-".length())))));
        try (ObjectStore fresh = StorageEngines.open("memory", PluginSettings.of("capacity", "64m"))) {
            CrashCheck check = CrashHarness.verify(fresh, run);
            assertThat(check.present()).isZero();
            assertThat(check.checked()).isEqualTo(run.highestIndex() + 2);
            assertThat(check.absent()).isEqualTo(check.checked());
            assertThat(check.committedButAbsent()).isEqualTo(run.committedCount());
            assertThat(check.corruptDetected()).isZero();
        }
    }

    @Test
    void theChildIsKilledOnceItHasCommittedTheBudgetLongBeforeTheTimeLimit() throws Exception {
        long budget = 16L << 20;
        CrashRun run = CrashHarness.writeAndKill("memory", PluginSettings.of("capacity", "256m"),
                Duration.ofSeconds(60), budget, work);
        assertThat(run.killed()).as("child ended by SIGKILL; its errors: " + run.childErrors()).isTrue();
        assertThat(run.writingFor()).isLessThan(Duration.ofSeconds(30));
        // killed within a poll of reaching the budget: at most a few objects of at most 4 MiB beyond it
        assertThat(run.committedBytes()).isGreaterThanOrEqualTo(budget).isLessThan(budget + (64L << 20));
    }

    @Test
    void verifyAcceptsExactObjectsAndNamesTheKeyAndOffsetOfABadByte() throws Exception {
        CrashRun run = new CrashRun("memory", work, Map.of("crash-0", CrashHarness.sizeOf(0)), 1, 137, Duration.ZERO);
        try (ObjectStore store = StorageEngines.open("memory", PluginSettings.of("capacity", "64m"))) {
            StoreFixtures.put(store, CacheKey.of("crash-0"), TestContent.seed("crash-0"), CrashHarness.sizeOf(0), 65_536);
            CrashCheck ok = CrashHarness.verify(store, run);
            assertThat(ok.present()).isEqualTo(1);
            assertThat(ok.absent()).isEqualTo(2);
            assertThat(ok.committedButAbsent()).isZero();

            long size = CrashHarness.sizeOf(1);
            long badAt = size / 2;
            try (ObjectWriter w = store.begin(CacheKey.of("crash-1"), StoreFixtures.metadata(size))) {
                ByteBuffer body = ByteBuffer.allocate((int) size);
                TestContent.fill(TestContent.seed("crash-1"), 0, body);
                body.put((int) badAt, (byte) ~body.get((int) badAt));
                w.write(body.flip());
                w.commit();
            }
            assertThatThrownBy(() -> CrashHarness.verify(store, run))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("crash-1").hasMessageContaining("offset " + badAt);

            StoreFixtures.put(store, CacheKey.of("crash-1"), TestContent.seed("crash-1"), size - 1, 65_536);
            assertThatThrownBy(() -> CrashHarness.verify(store, run))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("crash-1").hasMessageContaining("length");
        }
    }
}
