package org.edgelab.bench;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;

/**
 * The child JVM of {@link RestartToFirstHit}: {@code fill} writes the objects and closes the store;
 * {@code open} opens it and prints the open time, the first hit, the time to hit a sample of
 * 1,000 random keys and when {@code usage()} answered (for engines that finish indexing in the
 * background). Arguments: phase, engine, dir, capacity, objects, size, settings.
 */
public final class RestartProbe {

    private RestartProbe() {
    }

    public static void main(String[] args) throws Exception {
        String phase = args[0];
        BenchEngine engine = BenchEngine.valueOf(args[1]);
        Path dir = Path.of(args[2]);
        long capacity = Long.parseLong(args[3]);
        int objects = Integer.parseInt(args[4]);
        long size = Long.parseLong(args[5]);
        String settings = args.length > 6 ? args[6] : "";
        if (phase.equals("fill")) {
            fill(engine, dir, capacity, objects, size, settings);
        } else {
            open(engine, dir, capacity, objects, settings);
        }
    }

    private static void fill(BenchEngine engine, Path dir, long capacity, int objects, long size, String settings)
            throws Exception {
        ByteBuffer chunk = ByteBuffer.allocateDirect((int) Math.min(size, 64 * 1024));
        while (chunk.hasRemaining()) {
            chunk.put((byte) chunk.position());
        }
        chunk.flip();
        ObjectMetadata metadata = new ObjectMetadata(200, List.of(new HeaderField("ETag", "\"fill\"")), size, 0, 0,
                ObjectMetadata.NEVER);
        long start = System.nanoTime();
        try (ObjectStore store = engine.open(dir, capacity, settings)) {
            for (int i = 0; i < objects; i++) {
                try (ObjectWriter w = store.begin(CacheKey.of("obj-" + i), metadata)) {
                    for (long done = 0; done < size; ) {
                        ByteBuffer b = chunk.duplicate();
                        b.limit((int) Math.min(b.capacity(), size - done));
                        done += b.remaining();
                        w.write(b);
                    }
                    w.commit();
                }
            }
            System.out.printf(Locale.ROOT, "filled %s with %d objects of %d bytes in %.1f s (%d in store)%n",
                    engine.engineName(), objects, size, (System.nanoTime() - start) / 1e9, store.usage().objectCount());
        }
    }

    private static void open(BenchEngine engine, Path dir, long capacity, int objects, String settings) throws Exception {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        long t0 = System.nanoTime();
        try (ObjectStore store = engine.open(dir, capacity, settings)) {
            long opened = System.nanoTime();
            SplittableRandom random = new SplittableRandom(42);
            ByteBuffer one = ByteBuffer.allocate(1);
            String first = "obj-" + random.nextInt(objects);
            try (StoredObject o = store.lookup(CacheKey.of(first)).orElseThrow(
                    () -> new IllegalStateException(first + " is missing after the restart"))) {
                if (o.read(0, one) != 1) {
                    throw new IllegalStateException("no first byte from " + first);
                }
            }
            long firstHit = System.nanoTime();
            long wallFirstHit = System.currentTimeMillis();
            int hits = 0;
            for (int i = 0; i < 1000; i++) {
                var found = store.lookup(CacheKey.of("obj-" + random.nextInt(objects)));
                if (found.isPresent()) {
                    try (StoredObject o = found.get()) {
                        o.read(0, one.clear());
                        hits++;
                    }
                }
            }
            long sample = System.nanoTime();
            long count = store.usage().objectCount();
            long indexed = System.nanoTime();
            System.out.printf(Locale.ROOT, "  %s: %d objects; open %.1f ms; first hit %.1f ms after open started "
                            + "(%d ms after JVM start); 1000 random lookups %.1f ms, %d hits; "
                            + "usage() answered %.1f ms after open started (engines that index in the background wait)%n",
                    engine.engineName(), count, (opened - t0) / 1e6, (firstHit - t0) / 1e6,
                    wallFirstHit - jvmStart, (sample - firstHit) / 1e6, hits, (indexed - t0) / 1e6);
        }
    }
}
