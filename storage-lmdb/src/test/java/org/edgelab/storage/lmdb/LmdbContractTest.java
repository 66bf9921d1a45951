package org.edgelab.storage.lmdb;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.ObjectStoreContract;

/** The storage contract, run against the LMDB engine opened by name through the registry. */
class LmdbContractTest extends ObjectStoreContract {

    @Override
    protected ObjectStore openStore(long capacityBytes, Path dir) throws Exception {
        return StorageEngines.open("lmdb", PluginSettings.of(
                "path", dir.toString(),
                "capacity", Long.toString(capacityBytes),
                "map-size", Long.toString(Math.max(4 * capacityBytes, 8L << 20)),
                "chunk-size", "16KiB"));
    }

    @Override
    protected boolean persistent() {
        return true;
    }
}
