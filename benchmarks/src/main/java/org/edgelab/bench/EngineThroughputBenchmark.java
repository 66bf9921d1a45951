package org.edgelab.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.units.ByteSize;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Write and hot-read throughput of each engine for 100 KiB, 1 MiB and 10 MiB objects (one thread
 * by default; {@code -t N} shares the store between N threads).
 *
 * <ul>
 *   <li>{@code write}: writes a new object (unique key) in 64 KiB chunks and commits it; the store
 *       is bounded by {@code capacity}, so once full every write also evicts (steady state).</li>
 *   <li>{@code hotRead}: looks up one of a hot set of {@code hotSetBytes} written at setup and
 *       reads it whole in 64 KiB pieces: the engine's cached read path. {@code readPath} picks how
 *       ({@link ReadPath}: {@code COPY}, the default, copies with {@link StoredObject#read};
 *       {@code VIEW} borrows engine memory with {@link StoredObject#view} and fails fast, at setup,
 *       on an engine that lends none, rather than silently measuring a copy). {@code consume}
 *       picks what the reader does with each piece ({@link Consumption}: {@code FIRST_BYTE}, the
 *       default and the earlier figures' behaviour, or {@code EVERY_BYTE}, a checksum over the
 *       whole piece, which is what compares the two read paths fairly).</li>
 * </ul>
 * The score is operations (objects) per second; the {@code bytes} secondary result is the same
 * in bytes per second. Engines' own defaults apply (e.g. their sync settings) unless
 * {@code engineSettings} ({@code name=value;name=value}) overrides them. The store lives in a
 * temporary directory under {@code benchDir} (default: the system temporary directory).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class EngineThroughputBenchmark {

    private static final int CHUNK = 64 * 1024;

    @Param({"MEMORY", "RAW_LOG", "RAW_FILES", "LMDB"})
    public BenchEngine engine;

    @Param({"102400", "1048576", "10485760"})
    public int objectSize;

    @Param({"1GiB"})
    public String capacity;

    @Param({"128MiB"})
    public String hotSetBytes;

    @Param({""})
    public String engineSettings;

    @Param({""})
    public String benchDir;

    @Param({"COPY"})
    public ReadPath readPath;

    @Param({"FIRST_BYTE"})
    public Consumption consume;

    /**
     * hotRead only: closes and reopens the store once the hot set is written, so that reads meet
     * objects the engine found at open rather than ones this JVM wrote (lmdb then checks each
     * object's chunk checksums at its first lookup, in the warm-up). Persistent engines only.
     */
    @Param({"false"})
    public boolean reopen;

    /** How {@code hotRead} gets an object's bytes. */
    public enum ReadPath {
        /** {@link StoredObject#read}: copies into the benchmark's own 64 KiB buffer. */
        COPY,
        /** {@link StoredObject#view}: borrows up to 64 KiB of engine memory at a time; no copy. */
        VIEW
    }

    /** What {@code hotRead} does with each piece it reads. */
    public enum Consumption {
        /** Touches the first byte only (the earlier figures; a view is then barely touched). */
        FIRST_BYTE,
        /** Sums the whole piece eight bytes at a time (native order), so every byte is loaded. */
        EVERY_BYTE
    }

    private Path dir;
    private ObjectStore store;
    private ByteBuffer chunk;
    private ByteBuffer readBuffer;
    private ObjectMetadata metadata;
    private CacheKey[] hot;
    private final AtomicLong nextWrite = new AtomicLong();
    private final AtomicLong nextRead = new AtomicLong();

    /** Bytes moved, reported by JMH as a rate beside the operations. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Bytes {
        public long bytes;
    }

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws IOException {
        Path parent = benchDir.isBlank() ? Path.of(System.getProperty("java.io.tmpdir")) : Path.of(benchDir);
        Files.createDirectories(parent);
        dir = Files.createTempDirectory(parent, "edgelab-bench-" + engine.engineName() + "-");
        long cap = ByteSize.parse(capacity);
        store = engine.open(dir.resolve("store"), cap, engineSettings);
        chunk = ByteBuffer.allocateDirect(CHUNK);
        for (int i = 0; i < CHUNK; i++) {
            chunk.put((byte) (i * 31 + 7));
        }
        chunk.flip();
        readBuffer = ByteBuffer.allocateDirect(CHUNK).order(ByteOrder.nativeOrder());
        metadata = new ObjectMetadata(200, List.of(new HeaderField("Content-Type", "video/mp4"),
                new HeaderField("ETag", "\"bench\"")), objectSize, 0, 0, ObjectMetadata.NEVER);
        if (params.getBenchmark().endsWith("hotRead")) {
            long hotBytes = Math.min(ByteSize.parse(hotSetBytes), cap / 2);
            int count = (int) Math.max(1, hotBytes / objectSize);
            hot = new CacheKey[count];
            for (int i = 0; i < count; i++) {
                hot[i] = CacheKey.of("hot-" + i);
                writeObject(hot[i]);
            }
            if (reopen) {
                store.close();
                store = engine.open(dir.resolve("store"), cap, engineSettings);
                StoredObject kept = store.lookup(hot[0]).orElseThrow(() -> new IllegalStateException("engine " + engine
                        + " kept nothing across a reopen: reopen=true measures persistent engines only"));
                kept.close();
            }
            if (readPath == ReadPath.VIEW) {
                requireViews();
            }
        }
    }

    /** Fails fast when the engine lends no views, so VIEW never quietly measures something else. */
    private void requireViews() throws IOException {
        try (StoredObject o = store.lookup(hot[0]).orElseThrow()) {
            if (o.view(0, CHUNK).isEmpty()) {
                throw new IllegalStateException("engine " + engine + " lends no views (StoredObject.view is empty):"
                        + " readPath=VIEW measures only engines that keep objects in memory (MEMORY, LMDB);"
                        + " use readPath=COPY for it");
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private void writeObject(CacheKey key) throws IOException {
        try (ObjectWriter w = store.begin(key, metadata)) {
            for (long written = 0; written < objectSize; ) {
                ByteBuffer b = chunk.duplicate();
                int n = (int) Math.min(CHUNK, objectSize - written);
                b.limit(n);
                w.write(b);
                written += n;
            }
            w.commit();
        }
    }

    /** Writes and commits one new object. */
    @Benchmark
    public long write(Bytes bytes) throws IOException {
        long n = nextWrite.getAndIncrement();
        writeObject(CacheKey.of("w-" + n));
        bytes.bytes += objectSize;
        return n;
    }

    /** Looks up one hot object and reads it whole, by {@code readPath}. */
    @Benchmark
    public long hotRead(Bytes bytes) throws IOException {
        CacheKey key = hot[(int) (nextRead.getAndIncrement() % hot.length)];
        long sum = 0;
        try (StoredObject o = store.lookup(key).orElseThrow(() -> new IllegalStateException("hot object " + key
                + " was evicted: lower hotSetBytes or raise capacity"))) {
            long length = o.availableLength();
            for (long pos = 0; pos < length; ) {
                int n;
                if (readPath == ReadPath.COPY) {
                    readBuffer.clear();
                    n = o.read(pos, readBuffer);
                    if (n <= 0) {
                        throw new IllegalStateException("short read of " + key + " at " + pos);
                    }
                    sum += consume(readBuffer, 0, n);
                } else {
                    long at = pos;
                    ByteBuffer view = o.view(pos, CHUNK).orElseThrow(() -> new IllegalStateException(
                            "engine " + engine + " lent no view of " + key + " at " + at));
                    n = view.remaining();
                    sum += consume(view.order(ByteOrder.nativeOrder()), view.position(), n);
                }
                pos += n;
            }
            bytes.bytes += length;
        }
        return sum;
    }

    /** Consumes {@code length} bytes of {@code buf} from {@code from} as {@code consume} says. */
    private long consume(ByteBuffer buf, int from, int length) {
        if (consume == Consumption.FIRST_BYTE) {
            return buf.get(from);
        }
        long sum = 0;
        int end = from + length;
        int i = from;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            sum += buf.getLong(i);
        }
        for (; i < end; i++) {
            sum += buf.get(i);
        }
        return sum;
    }
}
