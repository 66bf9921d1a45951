package org.edgelab.storage.raw.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Optional;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.FileSlice;
import org.edgelab.storage.api.StoredObject;
import org.edgelab.storage.contract.StoreFixtures;
import org.edgelab.storage.contract.TestContent;
import org.edgelab.storage.raw.io.FileSpace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes handed to a socket by {@code sendfile} are not copied: the socket's queue (on loopback, the
 * receiver's) keeps references to the file's page-cache pages until the client reads them. A
 * response is complete for the server, and its object closed, once the last byte is handed over;
 * should the segment then be reclaimed and its slot overwritten in place, a client that had not yet
 * read those bytes would receive the new object's bytes for the old one. raw-log therefore gives a
 * reused slot fresh pages (it punches the old ones out) before it writes into it again.
 */
class RawLogSentBytesTest {

    private static final long SEGMENT = 256 * 1024;

    @TempDir
    Path dir;

    @Test
    void bytesSentZeroCopyBeforeTheirSegmentIsReusedReachTheClientUnchanged() throws Exception {
        RawLogConfig config = RawLogFixtures.config(dir, 1, 8 * SEGMENT, SEGMENT, RawLogConfig.Policy.FIFO);
        java.nio.file.Files.createDirectories(dir.resolve("disk0"));
        Optional<String> noHoles = FileSpace.unsupportedIn(dir.resolve("disk0"));
        try (RawLogShards store = RawLogFixtures.open(config);
             ServerSocketChannel server = ServerSocketChannel.open()) {
            if (noHoles.isPresent()) {
                // Where a reused segment cannot get fresh pages, nothing is sent zero-copy at all.
                CacheKey k = CacheKey.of("copied");
                StoreFixtures.put(store, k, TestContent.seed(k.value()), 10_000, 4096);
                try (StoredObject o = store.lookup(k).orElseThrow()) {
                    assertThat(o.fileSlice(0, 10_000)).as("no holes here (%s): no file slices", noHoles.get()).isEmpty();
                }
                return;
            }
            CacheKey a = CacheKey.of("sent-then-overwritten");
            long size = 100_000;
            long seed = TestContent.seed(a.value());
            StoreFixtures.put(store, a, seed, size, 16_384);

            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open()) {
                client.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20); // holds the whole body unread
                client.connect(server.getLocalAddress());
                try (SocketChannel peer = server.accept()) {
                    Optional<StoredObject> found = store.lookup(a);
                    assertThat(found).isPresent();
                    try (StoredObject o = found.get()) {
                        for (long sent = 0; sent < size; ) {
                            FileSlice slice = o.fileSlice(sent, size - sent).orElseThrow();
                            long end = slice.position() + slice.length();
                            for (long at = slice.position(); at < end; ) {
                                at += slice.channel().transferTo(at, end - at, peer);
                            }
                            sent += slice.length();
                        }
                    } // the response is out as far as the server can tell: the object is closed, its segment unpinned

                    // Wrap the log around twice: a's segment is reclaimed and written over with other objects.
                    for (int i = 0; i < 2 * 8 * SEGMENT / 20_000; i++) {
                        CacheKey k = CacheKey.of("filler-" + i);
                        StoreFixtures.put(store, k, TestContent.seed(k.value()), 20_000, 16_384);
                    }
                    assertThat(store.lookup(a)).as("a's segment was reclaimed").isEmpty();

                    assertThat(store.stats().extra().get("zeroCopy").toString()).startsWith("sendfile");
                    ByteBuffer received = ByteBuffer.allocate((int) size);
                    while (received.hasRemaining()) {
                        assertThat(client.read(received)).as("the client reads the whole body").isNotNegative();
                    }
                    received.flip();
                    TestContent.assertMatches("the body the client read after the segment was reused", seed, 0, received);
                }
            }
        }
    }

    @Test
    void aStoreWhoseSegmentsCannotBePunchedOutCopiesInsteadOfSendingFiles() throws Exception {
        // FaultyChannel wraps the real channel, so no descriptor can be had for fallocate: as on a file system
        // without hole punching, the store must not offer file slices.
        SegmentChannels wrapped = (disk, file) -> new FaultyChannel(SegmentChannels.FILES.open(disk, file), () -> false);
        RawLogConfig config = RawLogFixtures.config(dir, 1, 8 * SEGMENT, SEGMENT, RawLogConfig.Policy.FIFO);
        try (RawLogShards store = RawLogShards.open("raw-log", config, wrapped)) {
            CacheKey k = CacheKey.of("copied");
            long seed = TestContent.seed(k.value());
            StoreFixtures.put(store, k, seed, 50_000, 16_384);
            try (StoredObject o = store.lookup(k).orElseThrow()) {
                assertThat(o.fileSlice(0, 50_000)).isEmpty();
                StoreFixtures.verifyRead(o, seed, 0, 50_000, 16_384);
            }
            assertThat(store.stats().extra().get("zeroCopy").toString()).startsWith("off: ");
        }
    }
}
