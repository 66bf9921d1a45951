package org.edgelab.experiments.power;

import java.util.Collection;
import org.edgelab.experiments.descriptor.Descriptor.Hardware;
import org.edgelab.experiments.descriptor.Descriptor.Power;
import org.edgelab.experiments.plugin.PluginSettings;
import org.edgelab.plugin.PluginRegistry;

/**
 * The registry of {@link PowerModel}s found through {@code ServiceLoader}; an unknown name fails loudly
 * listing the known ones. Thread-safe.
 */
public final class PowerModels {

    /** The model used when a power block names none. */
    public static final String DEFAULT = "linear";

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

    /** The meter of {@code hardware}'s power model; one that gives no figures for {@code none}. */
    public static PowerMeter meter(Hardware hardware) {
        Power power = hardware.power();
        if (power.model().equals(Power.NONE.model())) {
            return new PowerMeter() {
                @Override
                public String method() {
                    return "none: no power model in the hardware profile, power columns are empty";
                }

                @Override
                public Window start() {
                    return u -> PowerReading.ABSENT;
                }
            };
        }
        return get(power.model()).meter(PluginSettings.of(power.settings()), hardware);
    }
}
