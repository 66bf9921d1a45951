package org.edgelab.experiments.power;

import java.util.Collection;
import org.edgelab.plugin.PluginRegistry;
import org.edgelab.plugin.PluginSettings;

/**
 * The registry of {@link PowerModel}s found through {@code ServiceLoader}; an unknown name fails loudly
 * listing the known ones. Thread-safe.
 */
public final class PowerModels {

    /** The model used when a power block names none. */
    public static final String DEFAULT = "linear";

    /** The name that selects no power model at all: power columns stay empty. */
    public static final String NONE = "none";

    private static final class Holder {
        static final PluginRegistry<PowerModel> REGISTRY = PluginRegistry.load("power model", PowerModel.class);
    }

    private PowerModels() {
    }

    /** The registry of power models visible to this class's loader. */
    public static PluginRegistry<PowerModel> registry() {
        return Holder.REGISTRY;
    }

    /** The model named {@code name}, or {@code UnknownPluginException} listing the known ones. */
    public static PowerModel get(String name) {
        return Holder.REGISTRY.get(name);
    }

    /** Every registered model, sorted by name. */
    public static Collection<PowerModel> all() {
        return Holder.REGISTRY.all();
    }

    /**
     * The meter of power model {@code model} with {@code settings}, for hardware profile {@code profile}; one
     * that gives no figures for {@link #NONE}.
     */
    public static PowerMeter meter(String model, PluginSettings settings, String profile) {
        if (model.equals(NONE)) {
            return PowerMeter.absent("none: no power model in the hardware profile, power columns are empty");
        }
        return get(model).meter(settings, profile);
    }
}
