package org.edgelab.experiments.power;

import java.util.List;
import org.edgelab.plugin.NamedPlugin;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;

/**
 * How a run's power is obtained (a hardware profile's {@code power.model}): modelled from utilisation or
 * measured from energy counters. Found by name through {@link PowerModels}; a jar adds one with a
 * {@code META-INF/services/org.edgelab.experiments.power.PowerModel} line. Implementations are
 * stateless and thread-safe.
 */
public interface PowerModel extends NamedPlugin {

    /** The keys this model accepts in the power block (besides {@code model}). */
    List<Setting> settings();

    /** Checks the settings while the descriptor loads; throws {@code SettingException} naming the bad key. */
    void validate(PluginSettings settings);

    /**
     * A meter for one run with these (validated) settings; {@code profile} names the hardware profile they
     * come from, for the method the manifest records.
     */
    PowerMeter meter(PluginSettings settings, String profile);
}
