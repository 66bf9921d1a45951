package org.edgelab.storage.tier;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngine;
import org.edgelab.storage.api.StorageEngines;

/**
 * The {@code tiered} engine plugin: the {@code memory} engine in front of any disk engine
 * (see {@link TieredStore}). Settings prefixed {@code disk.} go to the disk engine and
 * {@code memory.} to the memory engine. Stateless and thread-safe.
 */
public final class TieredEngine implements StorageEngine {

    /** The name the engine is selected by. */
    public static final String NAME = "tiered";
    /** The engine of the memory tier: the {@code memory} plugin, found by name like the disk engine (storage-memory is a run-time dependency). */
    static final String MEMORY_ENGINE = "memory";

    static final List<Setting> OWN_SPECS = List.of(
            new Setting("disk-engine", "raw-log", "the engine behind the memory tier (raw-log, raw-files, lmdb)"),
            new Setting("memory-capacity", "256m", "bytes of memory for the memory tier"),
            new Setting("admit", "always", "memory admission: always, or second-hit (on an object's second access)"),
            new Setting("bypass-above", "off", "objects larger than this are never copied into memory (off = no limit)"),
            new Setting("bypass-sequential", "false", "readers detected as sequential read from disk and do not promote the object into memory"),
            new Setting("sequential-after", "1MiB", "contiguous bytes read in order after which a reader counts as sequential"),
            new Setting("read-ahead", "off", "for sequential readers of disk objects, fetch this many bytes ahead into memory in the background (off = none)"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "a memory tier (admission, size and sequential bypass, read-ahead) in front of a disk engine";
    }

    /** Returns this engine's settings plus {@code disk.X} and {@code memory.X} for every setting X of the other engines. */
    @Override
    public List<Setting> settings() {
        Map<String, Setting> specs = new LinkedHashMap<>();
        OWN_SPECS.forEach(s -> specs.put(s.name(), s));
        for (StorageEngine engine : StorageEngines.registry().all()) {
            if (engine.name().equals(NAME)) {
                continue;
            }
            String prefix = engine.name().equals(MEMORY_ENGINE) ? TierSettings.MEMORY_PREFIX : TierSettings.DISK_PREFIX;
            for (Setting s : engine.settings()) {
                if (prefix.equals(TierSettings.MEMORY_PREFIX) && s.name().equals("capacity")) {
                    continue;
                }
                specs.putIfAbsent(prefix + s.name(), new Setting(prefix + s.name(), s.defaultValue(),
                        "passed to the " + (prefix.equals(TierSettings.DISK_PREFIX) ? "disk engine" : "memory engine")
                                + " as '" + s.name() + "'"));
            }
        }
        return new ArrayList<>(specs.values());
    }

    @Override
    public ObjectStore open(PluginSettings settings) throws IOException {
        settings.requireOnly("engine", NAME, settings());
        TierSettings tier = TierSettings.from(settings);
        ObjectStore memory = StorageEngines.open(MEMORY_ENGINE, tier.memorySettings());
        try {
            ObjectStore disk = StorageEngines.open(tier.diskEngine(), tier.diskSettings());
            return new TieredStore(tier, memory, disk);
        } catch (IOException | RuntimeException e) {
            memory.close();
            throw e;
        }
    }
}
