package org.edgelab.origin.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.channels.FileChannel;
import java.util.HexFormat;
import org.edgelab.origin.content.SyntheticContent;
import org.edgelab.origin.content.SyntheticPaths.SyntheticObject;

/** A synthetic object: bytes generated on demand, validators derived from (id, size). Immutable and thread-safe. */
final class SyntheticRepresentation implements Representation {

    /** 2020-01-01T00:00:00Z: synthetic objects were all "modified" within five years after this. */
    private static final long EPOCH_SECONDS = 1_577_836_800L;
    private static final long SPREAD_SECONDS = 5L * 365 * 86_400;

    private final long size;
    private final long seed;
    private final String etag;
    private final long lastModifiedMillis;

    SyntheticRepresentation(SyntheticObject object) {
        this.size = object.size();
        this.seed = SyntheticContent.seed(object.id());
        this.etag = '"' + HexFormat.of().toHexDigits(SyntheticContent.seed(object.id() + "/" + object.size())) + '"';
        this.lastModifiedMillis = (EPOCH_SECONDS + Math.floorMod(seed, SPREAD_SECONDS)) * 1000;
    }

    @Override
    public long length() {
        return size;
    }

    @Override
    public String etag() {
        return etag;
    }

    @Override
    public long lastModifiedMillis() {
        return lastModifiedMillis;
    }

    @Override
    public ByteBuf read(ByteBufAllocator alloc, long offset, int length) {
        ByteBuf buf = alloc.directBuffer(length, length);
        SyntheticContent.fill(seed, offset, buf, length);
        return buf;
    }

    @Override
    public FileChannel fileChannel() {
        return null;
    }

    @Override
    public void close() {
    }
}
