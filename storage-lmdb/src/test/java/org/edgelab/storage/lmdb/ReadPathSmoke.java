package org.edgelab.storage.lmdb;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;

/**
 * A smoke comparison of the two read paths on hot objects (not a benchmark: JMH gives figures):
 * (a) lookup + read() copying out of the map in a short transaction into a pooled direct buffer,
 * (b) lookup + view() lending map memory (each chunk looked up in a short transaction), consumed by copying
 * into the same buffer (as a socket write would copy it), and (b0) views not consumed at all.
 * With a second argument {@code fill SYNC}, times single-threaded writes of new objects instead.
 * Run by hand: {@code java <lmdb opens> -cp <test class path> org.edgelab.storage.lmdb.ReadPathSmoke [size [fill SYNC]]}.
 */
public final class ReadPathSmoke {

    private ReadPathSmoke() {
    }

    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 100 * 1024;
        int objects = 64;
        Path dir = Files.createTempDirectory("lmdb-readpath-");
        if (args.length > 2 && args[1].equals("fill")) {
            try (ObjectStore store = StorageEngines.open("lmdb",
                    PluginSettings.of("path", dir.toString(), "capacity", "1GiB", "sync", args[2]))) {
                for (int round = 0; round < 3; round++) {
                    long start = System.nanoTime();
                    int n = 0;
                    while (System.nanoTime() - start < 1_000_000_000L) {
                        CacheKey k = CacheKey.of("fill-" + round + "-" + n++);
                        StoreFixtures.put(store, k, 1, size, 64 * 1024);
                    }
                    double secs = (System.nanoTime() - start) / 1e9;
                    System.out.printf("fill size %d B, sync=%s, round %d: %.0f objects/s, %.0f MB/s%n",
                            size, args[2], round, n / secs, n * (double) size / secs / 1e6);
                }
            }
            return;
        }
        try (ObjectStore store = StorageEngines.open("lmdb", PluginSettings.of("path", dir.toString(), "capacity", "512MiB"))) {
            for (int i = 0; i < objects; i++) {
                CacheKey k = CacheKey.of("hot-" + i);
                StoreFixtures.put(store, k, TestContent.seed(k.value()), size, 64 * 1024);
            }
            ByteBuffer dst = ByteBuffer.allocateDirect(size);
            for (int round = 0; round < 5; round++) {
                System.out.printf("size %d B, round %d: (a) copy-out %.0f ns/op, (b) views+copy %.0f ns/op, (b0) views only %.0f ns/op%n",
                        size, round, time(store, objects, dst, 0), time(store, objects, dst, 1), time(store, objects, dst, 2));
            }
        } finally {
            try (var paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static double time(ObjectStore store, int objects, ByteBuffer dst, int mode) throws Exception {
        int ops = 20_000;
        long sink = 0;
        long start = System.nanoTime();
        for (int i = 0; i < ops; i++) {
            CacheKey k = CacheKey.of("hot-" + ThreadLocalRandom.current().nextInt(objects));
            try (StoredObject o = store.lookup(k).orElseThrow()) {
                long len = o.availableLength();
                dst.clear();
                if (mode == 0) {
                    for (long pos = 0; pos < len; ) {
                        pos += o.read(pos, dst);
                    }
                    sink += dst.get(0);
                } else {
                    for (long pos = 0; pos < len; ) {
                        Optional<ByteBuffer> v = o.view(pos, (int) (len - pos));
                        ByteBuffer b = v.orElseThrow();
                        pos += b.remaining();
                        if (mode == 1) {
                            dst.put(b);
                        } else {
                            sink += b.get(b.limit() - 1);
                        }
                    }
                    sink += dst.get(0);
                }
            }
        }
        double ns = (System.nanoTime() - start) / (double) ops;
        if (sink == 42) {
            System.out.print("");
        }
        return ns;
    }
}
