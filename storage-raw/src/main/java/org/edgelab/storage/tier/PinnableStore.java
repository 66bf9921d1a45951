package org.edgelab.storage.tier;

import java.io.IOException;
import java.util.Optional;
import org.edgelab.storage.api.CacheKey;

/**
 * A disk store that can pin a committed object cheaply, without opening or reading it: the pin
 * keeps the object's bytes from being recycled (as an open reader would) and counts as an access
 * for eviction. The memory tier pins the disk copy of every object it serves from memory, so
 * memory never serves an object the disk has dropped and the disk's capacity and pinning rules
 * hold for the whole tier. Disk stores without it are pinned with a lookup. Implementations are
 * thread-safe.
 */
public interface PinnableStore {

    /** Pins the committed object under {@code key}, or returns empty when there is none. */
    Optional<Pin> pin(CacheKey key) throws IOException;

    /** A held pin; closing releases it. Idempotent. */
    interface Pin extends AutoCloseable {
        @Override
        void close();
    }
}
