package org.edgelab.storage.raw.log;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.ObjectStoreContract;

/** The storage contract on {@code raw-log}, opened by name on two disks with automatic segment size. */
class RawLogContractTest extends ObjectStoreContract {

    @Override
    protected ObjectStore openStore(long capacityBytes, Path dir) throws Exception {
        return StorageEngines.open("raw-log", PluginSettings.of(
                "disks", dir.resolve("disk0") + "," + dir.resolve("disk1"),
                "capacity", Long.toString(capacityBytes)));
    }

    @Override
    protected boolean persistent() {
        return true;
    }
}
