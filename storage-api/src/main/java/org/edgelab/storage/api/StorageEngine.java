package org.edgelab.storage.api;

import java.io.IOException;
import java.util.List;
import org.edgelab.plugin.NamedPlugin;

/**
 * A storage engine plugin: a name and a factory for stores. Engines register through
 * {@code META-INF/services/org.edgelab.storage.api.StorageEngine} and are found by name with
 * {@link StorageEngines}. Implementations are stateless and thread-safe.
 */
public interface StorageEngine extends NamedPlugin {

    /** Returns the settings this engine understands, each with its default and meaning. */
    List<EngineSettings.Spec> settings();

    /**
     * Opens (or creates) a store. Settings this engine does not know, or cannot parse, fail with
     * {@link IllegalArgumentException} naming the setting and what is accepted.
     */
    ObjectStore open(EngineSettings settings) throws IOException;
}
