package org.edgelab.experiments.target;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Checks of a build's {@code target_settings} shared by the targets of this package. Stateless and thread-safe. */
final class TargetSettings {

    private TargetSettings() {
    }

    /** Rejects a key not in {@code known}, listing the known ones. */
    static void requireOnly(String target, Map<String, String> settings, Set<String> known) {
        for (String key : new TreeSet<>(settings.keySet())) {
            if (!known.contains(key)) {
                throw new BuildValidationException("target_settings", "unknown target setting '" + key + "' for the " + target
                        + " target; known: " + String.join(", ", new TreeSet<>(known)));
            }
        }
    }

    /** The boolean {@code key} ({@code true} or {@code false}), or {@code fallback} when absent. */
    static boolean flag(Map<String, String> settings, String key, boolean fallback) {
        String value = settings.get(key);
        if (value == null) {
            return fallback;
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new BuildValidationException("target_settings", key + " is true or false, got '" + value + "'");
        };
    }

    /** The value of {@code key} if present and not blank. */
    static Optional<String> get(Map<String, String> settings, String key) {
        String value = settings.get(key);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }
}
