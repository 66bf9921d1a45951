package org.edgelab.experiments.target;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;

/**
 * Reading a build's {@code target_settings} with the plugins' one settings mechanism ({@link PluginSettings}),
 * for the targets of this package and the container target: a bad one is a {@link BuildValidationException}
 * on field {@code target_settings}. Stateless and thread-safe.
 */
public final class TargetSettings {

    private TargetSettings() {
    }

    /** Rejects a key not among {@code known}, naming the target and listing its settings. */
    public static void requireOnly(String target, Map<String, String> settings, List<Setting> known) {
        try {
            PluginSettings.of(settings).requireOnly("target", target, known);
        } catch (SettingException e) {
            throw new BuildValidationException("target_settings", e.getMessage());
        }
    }

    /** The boolean {@code key} ({@code true}, {@code false}, ...), or {@code fallback} when absent. */
    public static boolean flag(Map<String, String> settings, String key, boolean fallback) {
        try {
            return PluginSettings.of(settings).bool(key, fallback);
        } catch (SettingException e) {
            throw new BuildValidationException("target_settings", e.getMessage());
        }
    }

    /** The value of {@code key} if present and not blank. */
    public static Optional<String> get(Map<String, String> settings, String key) {
        String value = settings.get(key);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }
}
