package org.edgelab.experiments.plugin;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.edgelab.experiments.descriptor.DurationValue;
import org.edgelab.units.ByteSize;
import org.edgelab.units.DataRate;

/**
 * The settings a descriptor gives one plugin (the {@code settings:} of a workload, the keys of a power
 * block, the {@code settings:} of an experiment kind), read with typed getters that throw
 * {@link SettingException} naming the key. Immutable and thread-safe.
 */
public final class PluginSettings {

    /** No settings. */
    public static final PluginSettings EMPTY = new PluginSettings(Map.of());

    private final Map<String, String> values;

    private PluginSettings(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** Wraps {@code values} (null means none). */
    public static PluginSettings of(Map<String, String> values) {
        return values == null || values.isEmpty() ? EMPTY : new PluginSettings(values);
    }

    /** Every value by name, in descriptor order. */
    public Map<String, String> asMap() {
        return values;
    }

    /** A copy with {@code name} set to {@code value}. */
    public PluginSettings with(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(values);
        copy.put(name, value);
        return new PluginSettings(copy);
    }

    /** Whether {@code name} is set. */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** Fails on the first setting not among {@code known}, naming the plugin and listing its settings. */
    public void requireOnly(String plugin, List<Setting> known) {
        Set<String> names = new TreeSet<>();
        known.forEach(s -> names.add(s.name()));
        for (String name : values.keySet()) {
            if (!names.contains(name)) {
                throw new SettingException(name, plugin + " has no setting '" + name + "'; its settings are: "
                        + (names.isEmpty() ? "none" : String.join(", ", names)));
            }
        }
    }

    /** The text of {@code name}, or {@code defaultValue} when unset. */
    public String string(String name, String defaultValue) {
        return values.getOrDefault(name, defaultValue);
    }

    /** The text of {@code name}; fails when unset or blank. */
    public String required(String name) {
        String v = values.get(name);
        if (v == null || v.isBlank()) {
            throw new SettingException(name, "setting '" + name + "' is required");
        }
        return v;
    }

    /** A byte size ({@code 70MB}, {@code 512KiB}), or the default when unset. */
    public long bytes(String name, long defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return ByteSize.parse(v.trim());
        } catch (IllegalArgumentException e) {
            throw new SettingException(name, e.getMessage());
        }
    }

    /** A data rate ({@code 70MB/s}, {@code 560Mbit/s}; see {@link DataRate}), or the default when unset. */
    public DataRate rate(String name, DataRate defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return DataRate.parse(v.trim());
        } catch (IllegalArgumentException e) {
            throw new SettingException(name, e.getMessage());
        }
    }

    /** A whole number within {@code min..max}, or the default when unset. */
    public int integer(String name, int defaultValue, int min, int max) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new SettingException(name, "must be a whole number, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new SettingException(name, "must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }

    /** A number >= {@code min}, or the default when unset. */
    public double number(String name, double defaultValue, double min) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        double d;
        try {
            d = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new SettingException(name, "must be a number, got '" + v + "'");
        }
        if (!(d >= min) || Double.isInfinite(d)) {
            throw new SettingException(name, "must be a number >= " + min + ", got " + v);
        }
        return d;
    }

    /** {@code true/false/yes/no/on/off}, or the default when unset. */
    public boolean bool(String name, boolean defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new SettingException(name, "must be true or false, got '" + v + "'");
        };
    }

    /** A duration ({@code 30ms}, {@code 2s}), or the default when unset. */
    public Duration duration(String name, Duration defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return DurationValue.parse(v.trim()).duration();
        } catch (IllegalArgumentException e) {
            throw new SettingException(name, e.getMessage());
        }
    }

    /** One of {@code choices}, or the default when unset. */
    public String choice(String name, String defaultValue, List<String> choices) {
        String v = values.getOrDefault(name, defaultValue);
        if (v != null && !choices.contains(v)) {
            throw new SettingException(name, "must be one of " + String.join(", ", choices) + ", got '" + v + "'");
        }
        return v;
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
