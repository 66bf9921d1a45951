package org.edgelab.plugin;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The one way EdgeLab finds plugins of a kind by name: every implementation registered through
 * {@link ServiceLoader} on the class path, keyed by {@link NamedPlugin#name()}. Lookups of an
 * unknown name fail loudly, naming the kind and listing the names that are known; two plugins
 * claiming one name fail at load time. Immutable once built and thread-safe.
 *
 * @param <T> the plugin kind
 */
public final class PluginRegistry<T extends NamedPlugin> {

    private final String kind;
    private final Map<String, T> byName;

    private PluginRegistry(String kind, Map<String, T> byName) {
        this.kind = kind;
        this.byName = Collections.unmodifiableMap(byName);
    }

    /** Loads every {@code type} plugin visible to the class loader of {@code type}. */
    public static <T extends NamedPlugin> PluginRegistry<T> load(String kind, Class<T> type) {
        return load(kind, type, type.getClassLoader());
    }

    /** Loads every {@code type} plugin visible to {@code loader} (e.g. one that includes extra jars). */
    public static <T extends NamedPlugin> PluginRegistry<T> load(String kind, Class<T> type, ClassLoader loader) {
        Map<String, T> found = new TreeMap<>();
        for (T plugin : ServiceLoader.load(type, loader)) {
            register(kind, found, plugin);
        }
        return new PluginRegistry<>(kind, found);
    }

    /** Builds a registry from explicit instances (tests, or built-ins that need no service file). */
    @SafeVarargs
    public static <T extends NamedPlugin> PluginRegistry<T> of(String kind, T... plugins) {
        Map<String, T> found = new TreeMap<>();
        for (T plugin : plugins) {
            register(kind, found, plugin);
        }
        return new PluginRegistry<>(kind, found);
    }

    private static <T extends NamedPlugin> void register(String kind, Map<String, T> found, T plugin) {
        String name = Objects.requireNonNull(plugin.name(), "plugin name");
        T previous = found.putIfAbsent(name, plugin);
        if (previous != null) {
            throw new IllegalStateException("two " + kind + " plugins claim the name '" + name + "': "
                    + previous.getClass().getName() + " and " + plugin.getClass().getName());
        }
    }

    /** Returns the plugin registered under {@code name}, or throws {@link UnknownPluginException}. */
    public T get(String name) {
        T plugin = byName.get(name);
        if (plugin == null) {
            throw new UnknownPluginException(kind, name, byName.keySet());
        }
        return plugin;
    }

    /** Returns the registered names, sorted. */
    public Collection<String> names() {
        return byName.keySet();
    }

    /** Returns the registered plugins, sorted by name. */
    public Collection<T> all() {
        return byName.values();
    }

    /** Returns the kind of plugin this registry holds, as used in messages. */
    public String kind() {
        return kind;
    }
}
