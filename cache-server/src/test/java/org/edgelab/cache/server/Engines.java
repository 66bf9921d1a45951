package org.edgelab.cache.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.units.ByteSize;

/**
 * Every storage engine the cache server is tested with, opened on a fresh directory with a given
 * capacity, so the end-to-end tests run once per engine. Stateless.
 */
final class Engines {

    /** The engines, by their registered names: the parameters of the end-to-end test classes. */
    static final List<String> NAMES = List.of("memory", "raw-log", "raw-files", "tiered", "lmdb");

    private Engines() {
    }

    /** Returns the engine names (a {@code @MethodSource}). */
    static Stream<String> names() {
        return NAMES.stream();
    }

    /** A store with the directory it lives in; closing closes the store and deletes the directory. */
    record Opened(ObjectStore store, Path dir) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                store.close();
            } finally {
                if (dir != null) {
                    deleteTree(dir);
                }
            }
        }
    }

    /** Opens {@code engine} with room for {@code capacity} bytes of objects (e.g. "64m"). */
    static Opened open(String engine, String capacity) throws IOException {
        long bytes = ByteSize.parse(capacity);
        if (engine.equals("memory")) {
            return new Opened(StorageEngines.open("memory", PluginSettings.of("capacity", capacity)), null);
        }
        Path dir = Files.createTempDirectory("edgelab-cache-" + engine + "-");
        String cap = Long.toString(bytes);
        PluginSettings settings = switch (engine) {
            case "raw-log" -> PluginSettings.of("disks", dir.resolve("disk0").toString(), "capacity", cap);
            case "raw-files" -> PluginSettings.of("dir", dir.resolve("files").toString(), "capacity", cap);
            case "tiered" -> PluginSettings.of("disk-engine", "raw-log", "disk.disks", dir.resolve("disk0").toString(),
                    "disk.capacity", cap, "memory-capacity", Long.toString(Math.max(1 << 20, bytes / 4)));
            case "lmdb" -> PluginSettings.of("path", dir.resolve("lmdb").toString(), "capacity", cap,
                    "map-size", Long.toString(Math.max(4 * bytes, 16L << 20)), "chunk-size", "64KiB");
            default -> throw new IllegalArgumentException("no test settings for engine " + engine);
        };
        try {
            return new Opened(StorageEngines.open(engine, settings), dir);
        } catch (IOException | RuntimeException e) {
            deleteTree(dir);
            throw e;
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
