package org.edgelab.experiments.power;

import java.util.List;
import java.util.Locale;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;

/**
 * The {@code linear} model: idle + watts per busy core x busy cores + watts per active disk x disks + NIC.
 * Every figure is labelled {@code modelled}. Stateless and thread-safe.
 */
public final class LinearPowerModel implements PowerModel {

    static final List<Setting> SETTINGS = List.of(
            new Setting("idle_w", null, "watts at idle (required)"),
            new Setting("w_per_busy_core", null, "watts per fully busy core (required)"),
            new Setting("w_per_active_disk", "0", "watts per disk in use"),
            new Setting("nic_w", "0", "watts of the network card"),
            new Setting("source", "assumed", "where the coefficients come from"));

    /**
     * The coefficients.
     *
     * @param idleW          watts at idle
     * @param wPerBusyCore   watts per fully busy core
     * @param wPerActiveDisk watts per disk in use
     * @param nicW           watts of the NIC
     * @param source         where they come from
     */
    public record Coefficients(double idleW, double wPerBusyCore, double wPerActiveDisk, double nicW, String source) {

        /** Watts with {@code busyCores} cores busy on average and {@code activeDisks} disks in use. */
        public double watts(double busyCores, int activeDisks) {
            return idleW + wPerBusyCore * busyCores + wPerActiveDisk * activeDisks + nicW;
        }

        /** Reads the coefficients; idle_w and w_per_busy_core are required. */
        public static Coefficients of(PluginSettings s) {
            for (String required : List.of("idle_w", "w_per_busy_core")) {
                if (!s.has(required)) {
                    throw new SettingException(required, "the linear power model needs idle_w and w_per_busy_core; " + required + " is missing");
                }
            }
            return new Coefficients(s.number("idle_w", 0, 0), s.number("w_per_busy_core", 0, 0),
                    s.number("w_per_active_disk", 0, 0), s.number("nic_w", 0, 0), s.string("source", "assumed"));
        }

        /** The formula with its figures, for the manifest. */
        public String describe(String profile) {
            return String.format(Locale.ROOT, "idle %s W + %s W per busy core (cpu_s_server / duration_s) + %s W per active disk"
                    + " + NIC %s W; coefficients: %s (hardware profile '%s')", idleW, wPerBusyCore, wPerActiveDisk, nicW, source, profile);
        }
    }

    @Override
    public String name() {
        return "linear";
    }

    @Override
    public String description() {
        return "modelled: idle + per busy core + per active disk + NIC watts (the default)";
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    @Override
    public void validate(PluginSettings settings) {
        settings.requireOnly("power model 'linear'", SETTINGS);
        Coefficients.of(settings);
    }

    @Override
    public PowerMeter meter(PluginSettings settings, String profile) {
        Coefficients c = Coefficients.of(settings);
        String method = "modelled (no energy counters read): " + c.describe(profile);
        return PowerMeter.of(method, () -> u -> new PowerReading(c.watts(u.busyCores(), u.activeDisks()),
                PowerReading.MODELLED));
    }
}
