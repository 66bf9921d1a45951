package org.edgelab.storage.tier;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.ObjectStoreContract;

/**
 * Runs the storage contract suite on the memory tier over raw-log (the disk engine it is meant
 * for), with every switch on (second-hit admission off so that memory is exercised from the first
 * write). {@link TieredStoreTest} covers the tier over raw-files.
 */
class TieredContractTest extends ObjectStoreContract {

    @Override
    protected ObjectStore openStore(long capacityBytes, Path dir) throws Exception {
        return StorageEngines.open("tiered", PluginSettings.of(
                "disk-engine", "raw-log",
                "disk.disks", dir.resolve("disk").toString(),
                "disk.capacity", Long.toString(capacityBytes),
                "memory-capacity", Long.toString(Math.max(64 * 1024, capacityBytes / 2)),
                "memory.chunk-size", "16k",
                "bypass-above", "1MiB",
                "read-ahead", "256KiB",
                "sequential-after", "128KiB"));
    }

    @Override
    protected boolean persistent() {
        return true;
    }
}
