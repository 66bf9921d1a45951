package org.edgelab.storage.lmdb;

import java.io.IOException;
import java.util.List;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngine;

/**
 * The {@code lmdb} storage engine: objects in chunks in one LMDB environment (B-tree,
 * copy-on-write, memory-mapped), persistent across restarts and crash-safe. Settings: see
 * {@link #settings()}. Stateless and thread-safe.
 */
public final class LmdbEngine implements StorageEngine {

    /** The name the engine is selected by. */
    public static final String NAME = "lmdb";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "LMDB (lmdbjava): a B-tree, copy-on-write, memory-mapped store of chunked objects";
    }

    @Override
    public List<Setting> settings() {
        return LmdbSettings.SPECS;
    }

    @Override
    public ObjectStore open(PluginSettings settings) throws IOException {
        return LmdbStore.open(LmdbSettings.from(settings));
    }
}
