package org.edgelab.storage.api;

import java.io.IOException;
import java.util.List;
import org.edgelab.plugin.NamedPlugin;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;

/**
 * A storage engine plugin: a name and a factory for stores. Engines register through
 * {@code META-INF/services/org.edgelab.storage.api.StorageEngine} and are found by name with
 * {@link StorageEngines}. Implementations are stateless and thread-safe.
 */
public interface StorageEngine extends NamedPlugin {

    /** Returns the settings this engine understands, each with its default and meaning. */
    List<Setting> settings();

    /**
     * Opens (or creates) a store. Settings this engine does not know, or cannot parse, fail with
     * {@link org.edgelab.plugin.SettingException} naming the setting and what is accepted.
     */
    ObjectStore open(PluginSettings settings) throws IOException;
}
