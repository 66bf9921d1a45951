package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.util.List;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngine;

/**
 * The {@code raw-log} engine plugin: a persistent segmented log on one or more disks (see
 * {@link RawLogShards} for how objects are placed on the disks, {@link RawLogStore} for the layout, durability promise
 * and index cost). Stateless and thread-safe.
 */
public final class RawLogEngine implements StorageEngine {

    /** The name the engine is selected by. */
    public static final String NAME = "raw-log";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "persistent segmented log on raw disks, FIFO/reinsertion eviction by segment (like Varnish MSE, "
                + "Traffic Server, CacheLib BlockCache)";
    }

    @Override
    public List<Setting> settings() {
        return RawLogConfig.SPECS;
    }

    @Override
    public ObjectStore open(PluginSettings settings) throws IOException {
        return RawLogShards.open(NAME, RawLogConfig.from(settings), SegmentChannels.FILES);
    }
}
