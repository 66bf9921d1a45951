package org.edgelab.storage.lmdb.archfixture;

import org.edgelab.storage.memory.MemoryEngine;

/** An engine class that uses another engine's class, for the test that the engines rule catches it (never run). */
public final class UsesTheMemoryEngine {
    /** Opens a memory tier by class instead of by name. */
    public Object memory() {
        return new MemoryEngine();
    }
}
