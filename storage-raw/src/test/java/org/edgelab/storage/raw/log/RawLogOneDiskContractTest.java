package org.edgelab.storage.raw.log;

import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.contract.ObjectStoreContract;

/** The storage contract on raw-log over one disk, the common case ({@link RawLogContractTest} runs it over two). */
class RawLogOneDiskContractTest extends ObjectStoreContract {

    @Override
    protected ObjectStore openStore(long capacityBytes, Path dir) throws Exception {
        return StorageEngines.open("raw-log", PluginSettings.of("disks", dir.resolve("disk0").toString(),
                "capacity", Long.toString(capacityBytes)));
    }

    @Override
    protected boolean persistent() {
        return true;
    }
}
