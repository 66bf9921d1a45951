package org.edgelab.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.UnknownPluginException;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngines;

/**
 * The engines a benchmark sweeps: each maps to an engine name and the settings that put it in a
 * directory with a capacity; {@code extra} ({@code name=value;name=value}) is laid over them.
 * Immutable.
 */
public enum BenchEngine {
    /** The {@code memory} engine. */
    MEMORY("memory"),
    /** The segmented-log engine. */
    RAW_LOG("raw-log"),
    /** The file-per-object engine. */
    RAW_FILES("raw-files"),
    /** The LMDB engine. */
    LMDB("lmdb"),
    /** The memory tier (a quarter of the capacity, default switches) in front of raw-log. */
    TIERED("tiered");

    private final String engineName;

    BenchEngine(String engineName) {
        this.engineName = engineName;
    }

    /** Returns the engine's registered name. */
    public String engineName() {
        return engineName;
    }

    /** Returns the settings that open this engine in {@code dir} with {@code capacityBytes}. */
    public PluginSettings settings(Path dir, long capacityBytes, String extra) {
        String capacity = Long.toString(capacityBytes);
        PluginSettings base = switch (this) {
            case MEMORY -> PluginSettings.of("capacity", capacity);
            case RAW_LOG -> PluginSettings.of("disks", dir.toString(), "capacity", capacity);
            case RAW_FILES -> PluginSettings.of("dir", dir.toString(), "capacity", capacity);
            case LMDB -> PluginSettings.of("path", dir.toString(), "capacity", capacity);
            case TIERED -> PluginSettings.of("disk-engine", "raw-log", "disk.disks", dir.toString(),
                    "disk.capacity", capacity, "memory-capacity", Long.toString(Math.max(1L << 20, capacityBytes / 4)));
        };
        if (extra != null && !extra.isBlank()) {
            base = base.withAll(PluginSettings.parse(java.util.List.of(extra.split(";"))));
        }
        return base;
    }

    /** Opens the engine, failing loudly (naming it) when its jar or service entry is missing. */
    public ObjectStore open(Path dir, long capacityBytes, String extra) throws IOException {
        try {
            StorageEngines.get(engineName);
        } catch (UnknownPluginException e) {
            throw new IllegalStateException("benchmark engine " + name() + " needs the storage engine '" + engineName
                    + "', which is not on the benchmark class path (build its module and rebuild benchmarks.jar): "
                    + e.getMessage(), e);
        }
        return StorageEngines.open(engineName, settings(dir, capacityBytes, extra));
    }
}
