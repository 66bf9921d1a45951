package org.edgelab.storage.tier;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.edgelab.plugin.PluginSettings;

/**
 * The typed settings of the {@code tiered} engine, each switchable so that experiments can compare
 * them. {@code bypassAboveBytes} and {@code readAheadBytes} are 0 when off. Immutable.
 */
public record TierSettings(
        String diskEngine,
        long memoryCapacityBytes,
        Admission admission,
        long bypassAboveBytes,
        boolean bypassSequential,
        long sequentialAfterBytes,
        long readAheadBytes,
        PluginSettings diskSettings,
        PluginSettings memorySettings) {

    static final String DISK_PREFIX = "disk.";
    static final String MEMORY_PREFIX = "memory.";

    /** Reads the settings, splitting off the {@code disk.} and {@code memory.} pass-through ones. */
    public static TierSettings from(PluginSettings settings) {
        Map<String, String> disk = new LinkedHashMap<>();
        Map<String, String> memory = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : settings.asMap().entrySet()) {
            if (e.getKey().startsWith(DISK_PREFIX)) {
                disk.put(e.getKey().substring(DISK_PREFIX.length()), e.getValue());
            } else if (e.getKey().startsWith(MEMORY_PREFIX)) {
                memory.put(e.getKey().substring(MEMORY_PREFIX.length()), e.getValue());
            }
        }
        if (memory.containsKey("capacity")) {
            throw new IllegalArgumentException("set the memory tier's size with 'memory-capacity', not 'memory.capacity'");
        }
        String diskEngine = settings.string("disk-engine", "raw-log");
        if (diskEngine.equals(TieredEngine.NAME)) {
            throw new IllegalArgumentException("engine setting 'disk-engine' cannot be '" + TieredEngine.NAME + "' itself");
        }
        long memoryCapacity = settings.bytes("memory-capacity", 256L << 20);
        memory.put("capacity", Long.toString(memoryCapacity));
        long sequentialAfter = settings.bytes("sequential-after", 1L << 20);
        if (sequentialAfter <= 0) {
            throw new IllegalArgumentException("engine setting 'sequential-after' must be positive");
        }
        return new TierSettings(diskEngine, memoryCapacity,
                Admission.parse(settings.string("admit", "always")),
                optionalBytes(settings, "bypass-above"),
                settings.bool("bypass-sequential", false),
                sequentialAfter,
                optionalBytes(settings, "read-ahead"),
                PluginSettings.of(disk), PluginSettings.of(memory));
    }

    private static long optionalBytes(PluginSettings settings, String name) {
        String v = settings.string(name, "off").trim().toLowerCase(Locale.ROOT);
        if (v.equals("off") || v.equals("none") || v.equals("0")) {
            return 0;
        }
        return settings.bytes(name, 0);
    }
}
