package org.edgelab.storage.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.CorruptObjectException;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StoredObject;

/**
 * The damaged-file fault, the same for every persistent engine: bytes flipped inside one stored
 * object's body in the engine's files while the store is stopped. After the restart the damaged
 * object must be a miss on its very first lookup (so a cache refetches it as a MISS instead of
 * sending a reply it must cut), be counted as dropped, never serve a wrong byte, and be stored
 * again normally; every other object stays byte-exact. The damage lies well past the object's
 * first chunk or extent, so an engine that only checks what a reader touches first does not pass.
 *
 * <p>Stateless; {@link #run} is not thread-safe for one directory.
 */
public final class DamagedFileScenario {

    /** Objects written: large enough to span several chunks (lmdb) and extents (raw-log). */
    public static final long SIZE = 2_600_000;
    /** Where in the damaged object the flipped bytes lie. */
    public static final long DAMAGE_AT = 2_300_000;
    private static final int OBJECTS = 6;
    private static final int VICTIM = 3;
    private static final int PATTERN = 64;

    /** Opens (or reopens) the engine's store in a directory. */
    @FunctionalInterface
    public interface Opener {
        ObjectStore open(Path dir) throws IOException;
    }

    private DamagedFileScenario() {
    }

    private static CacheKey key(int i) {
        return CacheKey.of("damaged-" + i);
    }

    /** Writes the objects, damages one on disk while the store is closed, reopens and checks; returns the damaged file. */
    public static Path run(Opener opener, Path dir) throws IOException {
        try (ObjectStore store = opener.open(dir)) {
            for (int i = 0; i < OBJECTS; i++) {
                StoreFixtures.put(store, key(i), TestContent.seed(key(i).value()), SIZE, 64 * 1024);
            }
        }
        Path damaged = flipBytesOf(dir, key(VICTIM));
        try (ObjectStore store = opener.open(dir)) {
            long droppedBefore = store.stats().corruptObjectsDropped();
            Optional<StoredObject> first = store.lookup(key(VICTIM));
            if (first.isPresent()) {
                String served;
                try (StoredObject o = first.get()) {
                    StoreFixtures.verifyRead(o, TestContent.seed(key(VICTIM).value()), 0, SIZE, 256 * 1024);
                    served = "served it whole, with its wrong bytes undetected";
                } catch (CorruptObjectException e) {
                    served = "found the damage only while it was read (" + e.getMessage() + ")";
                } catch (AssertionError e) {
                    served = "served wrong bytes: " + e.getMessage();
                }
                throw new AssertionError("the first lookup after the damage returned the object, and the engine " + served);
            }
            assertThat(store.stats().corruptObjectsDropped()).as("the damaged object is reported dropped")
                    .isGreaterThan(droppedBefore);
            assertThat(store.lookup(key(VICTIM))).as("a second lookup").isEmpty();
            for (int i = 0; i < OBJECTS; i++) {
                if (i != VICTIM) {
                    FullDiskScenario.assertExact(store, key(i), SIZE);
                }
            }
            StoreFixtures.put(store, key(VICTIM), TestContent.seed(key(VICTIM).value()), SIZE, 64 * 1024);
            FullDiskScenario.assertExact(store, key(VICTIM), SIZE);
        }
        try (ObjectStore store = opener.open(dir)) {
            for (int i = 0; i < OBJECTS; i++) {
                FullDiskScenario.assertExact(store, key(i), SIZE);
            }
        }
        return damaged;
    }

    /**
     * Finds the bytes of {@code key}'s body at {@link #DAMAGE_AT} in the files under {@code dir}
     * (where the engine put them is its own business) and inverts them; returns the file.
     */
    static Path flipBytesOf(Path dir, CacheKey key) throws IOException {
        byte[] pattern = new byte[PATTERN];
        TestContent.chunk(TestContent.seed(key.value()), DAMAGE_AT, PATTERN).get(pattern);
        return flipBytes(dir, pattern);
    }

    /**
     * Finds the first occurrence of {@code pattern} (bytes of one object's body, long enough to be
     * unique) in the files under {@code dir} and inverts it in place; returns the file. Fails when
     * no file holds it. For tests that damage an object whose bytes they know, e.g. a cache's.
     */
    public static Path flipBytes(Path dir, byte[] pattern) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).toList();
        }
        List<String> looked = new ArrayList<>();
        for (Path f : files) {
            long at = indexOf(f, pattern);
            looked.add(f.getFileName().toString());
            if (at >= 0) {
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                    byte[] flipped = pattern.clone();
                    for (int i = 0; i < flipped.length; i++) {
                        flipped[i] ^= (byte) 0xA5;
                    }
                    ch.write(ByteBuffer.wrap(flipped), at);
                    ch.force(true);
                }
                return f;
            }
        }
        throw new AssertionError("the " + pattern.length + " bytes sought are in none of " + looked);
    }

    private static long indexOf(Path file, byte[] pattern) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.allocate(1 << 20);
            long base = 0;
            int carried = 0;
            while (true) {
                buf.clear().position(carried);
                int n = ch.read(buf, base + carried);
                if (n <= 0) {
                    return -1;
                }
                int filled = carried + n;
                byte[] a = buf.array();
                for (int i = 0; i + pattern.length <= filled; i++) {
                    if (a[i] == pattern[0] && java.util.Arrays.equals(a, i, i + pattern.length, pattern, 0, pattern.length)) {
                        return base + i;
                    }
                }
                carried = Math.min(pattern.length - 1, filled);
                System.arraycopy(a, filled - carried, a, 0, carried);
                base += filled - carried;
            }
        }
    }
}
