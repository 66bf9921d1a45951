package org.edgelab.plugin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.edgelab.units.ByteSize;
import org.edgelab.units.DataRate;
import org.edgelab.units.Durations;

/**
 * The settings one plugin is given, whatever its kind: a storage engine ({@code -o capacity=4g} on the
 * command line, a build's {@code settings:} in a descriptor), a workload, a power model, an experiment
 * kind, a load client. Text values by name, read with typed getters that throw {@link SettingException}
 * naming the setting, so a caller can say where it was written (a descriptor's file, line and column).
 * What a plugin accepts is a list of {@link Setting}s, checked with {@link #requireOnly}. Immutable and
 * thread-safe.
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

    /** Settings from alternating names and values: {@code of("capacity", "1g")}. */
    public static PluginSettings of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values must alternate");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return of(m);
    }

    /** Parses {@code name=value} pairs, as given with repeated {@code -o} flags; a pair without '=' fails naming it. */
    public static PluginSettings parse(Collection<String> pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new SettingException("", "setting '" + pair + "' is not of the form name=value");
            }
            m.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return of(m);
    }

    /** Every value by name, in the order given. */
    public Map<String, String> asMap() {
        return values;
    }

    /** A copy with {@code name} set to {@code value}. */
    public PluginSettings with(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(values);
        copy.put(name, value);
        return new PluginSettings(copy);
    }

    /** A copy with every setting of {@code other} laid over these. */
    public PluginSettings withAll(PluginSettings other) {
        Map<String, String> copy = new LinkedHashMap<>(values);
        copy.putAll(other.values);
        return new PluginSettings(copy);
    }

    /** Whether {@code name} is set. */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /**
     * Fails on the first setting not among {@code known}, naming {@code plugin} (a label such as
     * {@code workload 'trace'}) and listing its settings.
     */
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

    /** {@link #requireOnly(String, List)} for the plugin {@code name} of {@code kind}: "engine 'raw-log' has no setting ...". */
    public void requireOnly(String kind, String name, List<Setting> known) {
        requireOnly(kind + " '" + name + "'", known);
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

    /** A byte size ({@code 70MB}, {@code 512KiB}, see {@link ByteSize}), or the default when unset. */
    public long bytes(String name, long defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return ByteSize.parse(v.trim());
        } catch (IllegalArgumentException e) {
            throw new SettingException(name, "setting '" + name + "': " + e.getMessage());
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
            throw new SettingException(name, "setting '" + name + "': " + e.getMessage());
        }
    }

    /** A whole number, or the default when unset. */
    public int integer(String name, int defaultValue) {
        return integer(name, defaultValue, Integer.MIN_VALUE, Integer.MAX_VALUE);
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
            throw new SettingException(name, "setting '" + name + "' must be a whole number, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new SettingException(name, "setting '" + name + "' must be between " + min + " and " + max + ", got " + n);
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
            throw new SettingException(name, "setting '" + name + "' must be a number, got '" + v + "'");
        }
        if (!(d >= min) || Double.isInfinite(d)) {
            throw new SettingException(name, "setting '" + name + "' must be a number >= " + min + ", got " + v);
        }
        return d;
    }

    /** {@code true/false/yes/no/on/off/1/0}, or the default when unset. */
    public boolean bool(String name, boolean defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new SettingException(name, "setting '" + name + "' must be true or false, got '" + v + "'");
        };
    }

    /** A duration ({@code 30ms}, {@code 2s}, see {@link Durations}), or the default when unset. */
    public Duration duration(String name, Duration defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Durations.parse(v.trim());
        } catch (IllegalArgumentException e) {
            throw new SettingException(name, "setting '" + name + "': " + e.getMessage());
        }
    }

    /** One of {@code choices}, or the default when unset. */
    public String choice(String name, String defaultValue, List<String> choices) {
        String v = values.getOrDefault(name, defaultValue);
        if (v != null && !choices.contains(v)) {
            throw new SettingException(name, "setting '" + name + "' must be one of " + String.join(", ", choices)
                    + ", got '" + v + "'");
        }
        return v;
    }

    /** A comma-separated list of paths, or the default when unset; a list of none fails. */
    public List<Path> paths(String name, List<Path> defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        List<Path> out = new ArrayList<>();
        for (String part : v.split(",")) {
            if (!part.isBlank()) {
                out.add(Path.of(part.trim()));
            }
        }
        if (out.isEmpty()) {
            throw new SettingException(name, "setting '" + name + "' lists no path");
        }
        return out;
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
