package org.edgelab.storage.api;

import java.io.IOException;
import java.util.Collection;
import org.edgelab.plugin.PluginRegistry;
import org.edgelab.plugin.PluginSettings;

/**
 * The registry of storage engines on the class path, by name. {@link #get} of an unknown name
 * fails loudly and lists the known engines. Thread-safe.
 */
public final class StorageEngines {

    private static final class Holder {
        static final PluginRegistry<StorageEngine> REGISTRY =
                PluginRegistry.load("storage engine", StorageEngine.class);
    }

    private StorageEngines() {
    }

    /** Returns the registry of engines visible to this class's loader. */
    public static PluginRegistry<StorageEngine> registry() {
        return Holder.REGISTRY;
    }

    /** Returns the engine registered under {@code name}. */
    public static StorageEngine get(String name) {
        return registry().get(name);
    }

    /** Returns the known engine names, sorted. */
    public static Collection<String> names() {
        return registry().names();
    }

    /** Opens a store of the named engine after checking the settings against the engine's specs. */
    public static ObjectStore open(String name, PluginSettings settings) throws IOException {
        StorageEngine engine = get(name);
        settings.requireOnly("engine", engine.name(), engine.settings());
        return engine.open(settings);
    }
}
