package org.edgelab.cache.server;

import io.netty.channel.DefaultFileRegion;
import org.edgelab.storage.api.FileSlice;

/**
 * A {@link DefaultFileRegion} over an engine's file that does not close the file when released:
 * the channel belongs to the engine (and stays valid while the StoredObject is open), so this
 * keeps Netty's native sendfile path without taking ownership. Confined to one channel's loop.
 */
final class SliceFileRegion extends DefaultFileRegion {

    SliceFileRegion(FileSlice slice) {
        super(slice.channel(), slice.position(), slice.length());
    }

    @Override
    protected void deallocate() {
        // The engine owns the FileChannel: never close it here.
    }
}
