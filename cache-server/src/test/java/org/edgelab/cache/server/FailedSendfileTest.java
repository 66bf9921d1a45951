package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.edgelab.cache.server.CacheFixture.getWhole;

import java.io.IOException;
import java.net.SocketException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;
import org.edgelab.origin.content.SyntheticPaths;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.api.StorageEngines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hit that goes out by sendfile never passes through the engine's reads, so when its file fails beneath it only
 * the sendfile sees the error, and Netty ends that reply's connection. The engine must still learn of it, or every
 * later hit is cut the same way: the cache reads the bytes where the sendfile failed back through the engine, which
 * judges the failure as its own read's. Here a raw-files object file is cut short in the one window where a sendfile
 * can still meet it: after the engine brought the body's last slice into memory on the read lane (a file cut before
 * that is found by the engine itself, and the reply resumed from the origin) and before the loop sends it. The reply
 * is cut, the read back drops the object, and the next request is a miss answered whole from the origin, then a hit
 * again. (raw-log reads a hit's commit record at each lookup, so a disk that stops answering is found there first.)
 */
class FailedSendfileTest {

    private static final long SIZE = 8_000_000;

    @Test
    void aStoredFileCutShortBeneathASendfileIsDroppedAndTheNextRequestIsServedWhole(@TempDir Path dir) throws Exception {
        try (OriginServer origin = OriginServer.start(OriginConfig.builder().port(0).build());
             CuttingStore store = new CuttingStore(StorageEngines.open("raw-files", PluginSettings.of("dir",
                     dir.toString(), "capacity", "64m")));
             CacheServer cache = CacheServer.start(CacheServerConfig.builder().origin(origin.baseUri()).adminPort(0)
                     .ioThreads(2).build(), store)) {
            String path = SyntheticPaths.path("cut-file", SIZE);
            try (RawHttp raw = new RawHttp(cache.port())) {
                assertThat(whole(raw, path, "fill")).isEqualTo("MISS");
                assertThat(whole(raw, path, "stored")).isEqualTo("HIT");
            }
            store.cutWhenLastSliceIsLent(objectFile(dir));
            try (RawHttp raw = new RawHttp(cache.port(), 64 << 10)) {
                raw.send(get(path));
                RawHttp.Response cut = readOrReset(raw);
                assertThat(store.cut()).as("the file was cut beneath the body's last slice").isTrue();
                assertThat(cut == null || !cut.complete())
                        .as("the reply whose sendfile meets the end of the file cannot end whole").isTrue();
            }
            awaitDropped(store);
            long originBefore = origin.stats().requests();
            try (RawHttp raw = new RawHttp(cache.port())) {
                assertThat(whole(raw, path, "the next request")).isEqualTo("MISS");
                assertThat(whole(raw, path, "stored again")).isEqualTo("HIT");
            }
            assertThat(origin.stats().requests() - originBefore).as("one refetch").isEqualTo(1);
        }
    }

    /**
     * raw-files behind a test double that cuts an object file short, once armed, right after the engine lent the
     * slice that ends the body (its pages in memory), halfway into that slice: before the loop sends it.
     */
    private static final class CuttingStore extends ForwardingStore {

        private volatile Path armed;
        private volatile boolean cut;

        CuttingStore(ObjectStore delegate) {
            super("cutting", delegate);
        }

        void cutWhenLastSliceIsLent(Path file) {
            armed = file;
        }

        boolean cut() {
            return cut;
        }

        @Override
        public Optional<StoredObject> lookup(CacheKey key) throws IOException {
            return super.lookup(key).map(o -> new ForwardingObject(o) {
                @Override
                public Optional<FileSlice> fileSlice(long position, long maxLength) {
                    Optional<FileSlice> slice = super.fileSlice(position, maxLength);
                    Path file = armed;
                    if (file != null && slice.isPresent() && position + slice.get().length() == SIZE) {
                        armed = null;
                        try {
                            cutShort(file, position + slice.get().length() / 2);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        cut = true;
                    }
                    return slice;
                }
            });
        }
    }

    /** Waits for the read back, which runs on the store's executor once the sendfile failed, to drop the object. */
    private static void awaitDropped(ObjectStore store) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (store.stats().corruptObjectsDropped() == 0) {
            assertThat(System.nanoTime() < deadline).as("the object cut short was dropped within 10 s").isTrue();
            Thread.sleep(10);
        }
        assertThat(store.stats().corruptObjectsDropped()).isEqualTo(1);
    }

    /** The one object file under the store's directory (the engine's own files are small). */
    private static Path objectFile(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> big = files.filter(Files::isRegularFile).filter(p -> p.toFile().length() >= SIZE).toList();
            assertThat(big).as("object files of at least %d bytes under %s", SIZE, dir).hasSize(1);
            return big.get(0);
        }
    }

    private static void cutShort(Path file, long bodyBytesLeft) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - SIZE + bodyBytesLeft);
        }
    }

    private static RawHttp.Response readOrReset(RawHttp raw) throws IOException {
        try {
            return raw.read(false);
        } catch (SocketException reset) {
            return null;
        }
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: edge.example\r\n\r\n";
    }

    private static String whole(RawHttp raw, String path, String what) throws Exception {
        return getWhole(raw, path, "cut-file", SIZE, what);
    }
}
