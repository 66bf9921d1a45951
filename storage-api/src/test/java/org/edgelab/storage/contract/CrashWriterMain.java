package org.edgelab.storage.contract;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.ObjectWriter;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StorageFullException;

/**
 * The child process of {@link CrashHarness}: opens an engine by name and writes objects
 * {@code crash-0, crash-1, ...} until it is killed, appending {@code key size committed} to the
 * committed-keys file (and forcing it to disk) after each commit returns, or
 * {@code key size skipped} when the store was full.
 *
 * <p>Arguments: engine name, committed-keys file, then settings as {@code name=value}.
 * Prints {@value #READY} on standard output once the store is open. Single-threaded.
 */
public final class CrashWriterMain {

    /** The line the child prints once the store is open and writing starts. */
    static final String READY = "crash-writer: writing";
    static final int CHUNK = 64 * 1024;

    private CrashWriterMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: CrashWriterMain ENGINE COMMITTED_KEYS_FILE [name=value ...]");
            System.exit(2);
        }
        String engine = args[0];
        Path keysFile = Path.of(args[1]);
        PluginSettings settings = PluginSettings.parse(Arrays.asList(args).subList(2, args.length));
        ObjectStore store = StorageEngines.open(engine, settings);
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        try (FileChannel keys = FileChannel.open(keysFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            System.out.println(READY);
            System.out.flush();
            for (int i = 0; ; i++) {
                String key = CrashHarness.key(i);
                long size = CrashHarness.sizeOf(i);
                long seed = TestContent.seed(key);
                try (ObjectWriter w = store.begin(CacheKey.of(key), StoreFixtures.metadata(size))) {
                    for (long pos = 0; pos < size; pos += CHUNK) {
                        int n = (int) Math.min(CHUNK, size - pos);
                        chunk.clear().limit(n);
                        TestContent.fill(seed, pos, chunk);
                        w.write(chunk.flip());
                    }
                    w.commit();
                } catch (StorageFullException e) {
                    System.err.println("crash-writer: " + key + " skipped: " + e.getMessage());
                    append(keys, key + " " + size + " " + CrashRun.SKIPPED + "\n");
                    continue;
                }
                append(keys, key + " " + size + " " + CrashRun.COMMITTED + "\n");
            }
        }
    }

    private static void append(FileChannel keys, String text) throws IOException {
        ByteBuffer line = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
        while (line.hasRemaining()) {
            keys.write(line);
        }
        keys.force(false);
    }
}
