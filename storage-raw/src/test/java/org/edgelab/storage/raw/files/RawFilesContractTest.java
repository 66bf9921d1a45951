package org.edgelab.storage.raw.files;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.ObjectStoreContract;

/** Runs the storage contract suite on the raw-files engine, opened by name through the registry. */
class RawFilesContractTest extends ObjectStoreContract {

    @Override
    protected ObjectStore openStore(long capacityBytes, Path dir) throws Exception {
        return StorageEngines.open("raw-files",
                PluginSettings.of("dir", dir.resolve("cache").toString(), "capacity", Long.toString(capacityBytes)));
    }

    @Override
    protected boolean persistent() {
        return true;
    }
}
