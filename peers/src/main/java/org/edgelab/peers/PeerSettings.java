package org.edgelab.peers;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.edgelab.experiments.target.BuildValidationException;
import org.edgelab.experiments.target.EdgeLabBuilds;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.ServerMemory;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;

/**
 * A peer's engines (its storage kinds, e.g. Varnish's {@code malloc} and {@code file}) with the settings
 * each takes, and the checks every peer target makes on a build with them: a known engine, known
 * settings that parse, and no target settings but the memory limit ({@link ServerMemory}). Immutable and thread-safe.
 *
 * @param target  the target's name, for messages
 * @param engines each engine's name and the settings it takes
 */
public record PeerSettings(String target, Map<String, List<Setting>> engines) {

    public PeerSettings {
        engines = Map.copyOf(engines);
    }

    /**
     * Checks {@code build} and returns its settings with defaults applied (values as written, before
     * {@code ${store}} is resolved); throws {@link BuildValidationException} naming the field at fault.
     */
    public PluginSettings check(ServerBuild build) {
        java.util.Set<String> others = new TreeSet<>(build.targetSettings().keySet());
        ServerMemory.SETTINGS.forEach(s -> others.remove(s.name()));
        if (!others.isEmpty()) {
            throw new BuildValidationException("target_settings", "the " + target + " target takes no target settings but memory and"
                    + " memory_fallback (its settings go in settings), got " + others);
        }
        ServerMemory.validate(build.targetSettings());
        List<Setting> specs = engines.get(build.engine());
        if (specs == null) {
            throw new BuildValidationException("engine", "the " + target + " target has no engine '" + build.engine()
                    + "'; its engines are: " + String.join(", ", new TreeSet<>(engines.keySet())));
        }
        PluginSettings given = PluginSettings.of(build.settings());
        try {
            given.requireOnly("engine", target + " " + build.engine(), specs);
        } catch (IllegalArgumentException e) {
            throw new BuildValidationException("settings", e.getMessage());
        }
        PluginSettings settings = given;
        for (Setting spec : specs) {
            if (!build.settings().containsKey(spec.name())) {
                if (spec.defaultValue() == null) {
                    throw new BuildValidationException("settings", target + " " + build.engine() + " needs setting '" + spec.name()
                            + "' (" + spec.description() + ")");
                }
                settings = settings.with(spec.name(), spec.defaultValue());
            }
        }
        return settings;
    }

    /** A byte-size setting of at least {@code minimum} bytes; names the setting when it does not parse. */
    public static long bytes(PluginSettings settings, String name, long minimum) {
        long value;
        try {
            value = settings.bytes(name, -1);
        } catch (IllegalArgumentException e) {
            throw new BuildValidationException("settings", e.getMessage());
        }
        if (value < minimum) {
            throw new BuildValidationException("settings", "setting '" + name + "' must be at least " + org.edgelab.units.ByteSize.format(minimum) + " (" + minimum + " bytes), got "
                    + settings.string(name, null));
        }
        return value;
    }

    /** A positive integer setting, or {@code defaultValue} when unset; names the setting when it does not parse. */
    public static int positive(PluginSettings settings, String name, int defaultValue) {
        int value;
        try {
            value = settings.integer(name, defaultValue);
        } catch (IllegalArgumentException e) {
            throw new BuildValidationException("settings", e.getMessage());
        }
        if (value < 1) {
            throw new BuildValidationException("settings", "setting '" + name + "' must be at least 1, got " + value);
        }
        return value;
    }

    /** A boolean setting (true/false, yes/no, on/off); names the setting when it does not parse. */
    public static boolean bool(PluginSettings settings, String name) {
        try {
            return settings.bool(name, false);
        } catch (IllegalArgumentException e) {
            throw new BuildValidationException("settings", e.getMessage());
        }
    }

    /** {@code value} with {@link EdgeLabBuilds#STORE_PLACEHOLDER} replaced by {@code storeDir}, as an absolute path. */
    public static Path storePath(String value, Path storeDir) {
        return Path.of(value.replace(EdgeLabBuilds.STORE_PLACEHOLDER, storeDir.toAbsolutePath().toString())).toAbsolutePath();
    }
}
