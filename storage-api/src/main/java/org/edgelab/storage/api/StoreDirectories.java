package org.edgelab.storage.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;

/**
 * Finds where a disk engine keeps its data: the engine's required directory setting ({@code dir},
 * {@code disks} or {@code path}; {@code disk.X} for the tiered engine's disk engine), so that a caller
 * can give it a default directory when the user named none. Stateless and thread-safe.
 */
public final class StoreDirectories {
    private static final Set<String> DIRECTORY_SETTINGS = Set.of("dir", "disks", "path");
    private static final String TIERED = "tiered";
    private static final String TIERED_DISK_ENGINE = "disk-engine";
    private static final String TIERED_DISK_DEFAULT = "raw-log";
    private static final String TIERED_DISK_PREFIX = "disk.";

    private StoreDirectories() {
    }

    /** The directory settings {@code engine} requires that {@code settings} leaves unset (empty for memory engines). */
    public static List<String> missing(String engine, PluginSettings settings) {
        List<String> out = new ArrayList<>();
        collect(StorageEngines.get(engine).settings(), "", settings, out);
        if (engine.equals(TIERED)) {
            String disk = settings.string(TIERED_DISK_ENGINE, TIERED_DISK_DEFAULT);
            if (StorageEngines.names().contains(disk)) {
                collect(StorageEngines.get(disk).settings(), TIERED_DISK_PREFIX, settings, out);
            }
        }
        return out;
    }

    /** {@code settings} with every directory setting {@link #missing} set to {@code dir}. */
    public static PluginSettings fill(String engine, PluginSettings settings, Path dir) {
        PluginSettings out = settings;
        for (String name : missing(engine, settings)) {
            out = out.with(name, dir.toAbsolutePath().toString());
        }
        return out;
    }

    private static void collect(List<Setting> specs, String prefix, PluginSettings settings, List<String> out) {
        for (Setting spec : specs) {
            String name = prefix + spec.name();
            if (spec.defaultValue() == null && DIRECTORY_SETTINGS.contains(spec.name()) && !settings.asMap().containsKey(name)) {
                out.add(name);
            }
        }
    }
}
