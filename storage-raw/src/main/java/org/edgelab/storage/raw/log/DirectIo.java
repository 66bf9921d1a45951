package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * O_DIRECT body writes and reads for {@code direct-io=true}: whether they are on, the block size extents
 * align to, and a pool of block-aligned 1 MiB staging buffers (writes stage bodies in them, reads bring
 * the blocks around a range into one and copy the range out). Where the file system refuses
 * O_DIRECT (tmpfs, some overlays) it stays off and says why. Thread-safe.
 */
final class DirectIo {

    private static final System.Logger LOG = System.getLogger(DirectIo.class.getName());
    private static final int STAGE = 1 << 20;

    private final boolean on;
    private final int block;
    private final String status;
    private final ConcurrentLinkedQueue<ByteBuffer> stages = new ConcurrentLinkedQueue<>();

    private DirectIo(boolean on, int block, String status) {
        this.on = on;
        this.block = block;
        this.status = status;
    }

    /** Buffered writes only. */
    static DirectIo off() {
        return new DirectIo(false, 4096, "off");
    }

    /** Opens an O_DIRECT channel on every open segment of an online disk, or falls back to buffered writes saying why. */
    static DirectIo open(RawLogConfig config, SegmentSlots slots, DiskHealth disks) {
        if (!config.directIo()) {
            return off();
        }
        int block = 4096;
        try {
            for (int d = 0; d < disks.count(); d++) {
                if (disks.online(d)) {
                    block = Math.max(block, (int) Math.min(1 << 16, Files.getFileStore(disks.dir(d)).getBlockSize()));
                }
            }
            if (config.segmentSize() % block != 0) {
                throw new IOException("segment-size " + config.segmentSize() + " is not a multiple of the block size " + block);
            }
            for (Segment s : slots.all()) {
                if (s.isOpen()) {
                    s.openDirect(openChannel(disks.dir(s.disk).resolve(Segment.fileName(s.slot))));
                }
            }
            return new DirectIo(true, block, "on (block " + block + " B): bodies written and read past the page cache");
        } catch (IOException | UnsupportedOperationException e) {
            for (Segment s : slots.all()) {
                s.closeDirect();
            }
            LOG.log(System.Logger.Level.WARNING, "direct-io=true, but O_DIRECT is not available on " + config.disks()
                    + " (" + e + "); raw-log writes through the page cache instead");
            return new DirectIo(false, 4096, "off: " + e);
        }
    }

    /** Opens {@code file} for O_DIRECT reads and writes. */
    static FileChannel openChannel(java.nio.file.Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                com.sun.nio.file.ExtendedOpenOption.DIRECT);
    }

    boolean on() {
        return on;
    }

    int block() {
        return block;
    }

    String status() {
        return status;
    }

    /** Lends a block-aligned direct buffer for staging O_DIRECT writes; give it back with {@link #giveBack}. */
    ByteBuffer borrow() {
        ByteBuffer b = stages.poll();
        return b != null ? b.clear() : ByteBuffer.allocateDirect(STAGE + block).alignedSlice(block).limit(STAGE);
    }

    void giveBack(ByteBuffer stage) {
        if (stages.size() < 32) {
            stages.add(stage.clear().limit(STAGE));
        }
    }

    static long alignUp(long n, long alignment) {
        return (n + alignment - 1) / alignment * alignment;
    }
}
