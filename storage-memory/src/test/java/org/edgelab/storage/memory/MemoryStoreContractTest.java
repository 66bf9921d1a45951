package org.edgelab.storage.memory;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.ObjectStoreContract;

/** Runs the storage contract suite on the memory engine, opened by name through the registry. */
class MemoryStoreContractTest extends ObjectStoreContract {

    @Override
    protected ObjectStore openStore(long capacityBytes, Path dir) throws Exception {
        return StorageEngines.open("memory",
                PluginSettings.of("capacity", Long.toString(capacityBytes), "chunk-size", "16k"));
    }
}
