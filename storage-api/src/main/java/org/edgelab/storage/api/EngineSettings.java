package org.edgelab.storage.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.edgelab.units.ByteSize;

/**
 * The settings an engine is opened with: string values by name, as given on the command line
 * ({@code --engine-opt capacity=4g}) or in a descriptor, read through typed getters that fail with
 * a message naming the setting. Immutable and thread-safe.
 */
public final class EngineSettings {

    /** A setting an engine understands: its name, default (null if required) and meaning. */
    public record Spec(String name, String defaultValue, String description) {
        public Spec {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
        }
    }

    private final Map<String, String> values;

    private EngineSettings(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /** Returns settings holding the given values. */
    public static EngineSettings of(Map<String, String> values) {
        return new EngineSettings(values);
    }

    /** Returns settings from alternating names and values: {@code of("capacity", "1g")}. */
    public static EngineSettings of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values must alternate");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return new EngineSettings(m);
    }

    /** Parses {@code name=value} pairs, as given with repeated {@code --engine-opt} flags. */
    public static EngineSettings parse(Collection<String> pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("engine setting '" + pair + "' is not of the form name=value");
            }
            m.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return new EngineSettings(m);
    }

    /** Returns a copy with {@code name} set to {@code value}. */
    public EngineSettings with(String name, String value) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(name, value);
        return new EngineSettings(m);
    }

    /** Returns a copy with every setting of {@code other} laid over these. */
    public EngineSettings withAll(EngineSettings other) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.putAll(other.values);
        return new EngineSettings(m);
    }

    /** Returns the raw values. */
    public Map<String, String> asMap() {
        return values;
    }

    /** Fails if a setting is not among {@code specs}, naming it and listing the known ones. */
    public void requireOnly(String engine, List<Spec> specs) {
        Set<String> known = new TreeSet<>();
        specs.forEach(s -> known.add(s.name()));
        List<String> unknown = new ArrayList<>();
        for (String name : values.keySet()) {
            if (!known.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("engine '" + engine + "' has no setting " + String.join(", ", unknown)
                    + "; its settings are: " + String.join(", ", known));
        }
    }

    /** Returns the value, or {@code defaultValue} if unset. */
    public String string(String name, String defaultValue) {
        return values.getOrDefault(name, defaultValue);
    }

    /** Returns the value, failing if unset. */
    public String requiredString(String name) {
        String v = values.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("engine setting '" + name + "' is required");
        }
        return v;
    }

    /** Returns a byte size (see {@link ByteSize}), or the default if unset. */
    public long bytes(String name, long defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return ByteSize.parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("engine setting '" + name + "': " + e.getMessage(), e);
        }
    }

    /** Returns an integer, or the default if unset. */
    public int integer(String name, int defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("engine setting '" + name + "' must be an integer, got '" + v + "'", e);
        }
    }

    /** Returns a boolean ({@code true/false/yes/no/on/off}), or the default if unset. */
    public boolean bool(String name, boolean defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true": case "yes": case "on": case "1":
                return true;
            case "false": case "no": case "off": case "0":
                return false;
            default:
                throw new IllegalArgumentException("engine setting '" + name + "' must be true or false, got '" + v + "'");
        }
    }

    /** Returns a comma-separated list of paths, or the default if unset. */
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
            throw new IllegalArgumentException("engine setting '" + name + "' lists no path");
        }
        return out;
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
