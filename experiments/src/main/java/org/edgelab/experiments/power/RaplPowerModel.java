package org.edgelab.experiments.power;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;

/**
 * The {@code rapl} model: power measured from the Linux powercap RAPL package counters, labelled
 * {@code measured}. They cover the whole machine's CPU packages (server, load generator, everything else),
 * not DRAM, disks or NIC. Where they cannot be read (absent in most virtual machines, root-only on recent
 * kernels) the figures are {@code none} with the reason in the manifest, or, with {@code fallback: linear},
 * modelled from the linear coefficients of the same block and labelled {@code modelled}. Stateless and
 * thread-safe.
 */
public final class RaplPowerModel implements PowerModel {

    private static final List<Setting> SETTINGS;

    static {
        List<Setting> s = new ArrayList<>();
        s.add(new Setting("powercap_root", RaplCounters.DEFAULT_ROOT.toString(), "where the powercap zones are"));
        s.add(new Setting("fallback", "none", "when the counters cannot be read: none (no figure) or linear (model from the coefficients below)"));
        s.addAll(LinearPowerModel.SETTINGS);
        SETTINGS = List.copyOf(s);
    }

    @Override
    public String name() {
        return "rapl";
    }

    @Override
    public String description() {
        return "measured: Linux powercap RAPL package energy counters (none, or linear with fallback: linear, where unreadable)";
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    @Override
    public void validate(PluginSettings settings) {
        settings.requireOnly("power model 'rapl'", SETTINGS);
        if (settings.choice("fallback", "none", List.of("none", "linear")).equals("linear")) {
            LinearPowerModel.Coefficients.of(settings);
        }
    }

    @Override
    public PowerMeter meter(PluginSettings settings, String profile) {
        Path root = Path.of(settings.string("powercap_root", RaplCounters.DEFAULT_ROOT.toString()));
        RaplCounters.Result opened = RaplCounters.open(root);
        if (opened.counters().isEmpty()) {
            String unavailable = "RAPL unavailable: " + opened.reason();
            if (settings.string("fallback", "none").equals("linear")) {
                PowerMeter linear = new LinearPowerModel().meter(settings, profile);
                return PowerMeter.of(unavailable + "; fallback " + linear.method(), linear::start);
            }
            return PowerMeter.absent("none (power_source=none, power columns empty): " + unavailable);
        }
        RaplCounters counters = opened.counters().get();
        String method = "measured: RAPL package energy counters " + counters.zones() + " read before and after each"
                + " measured window (mean watts = joules / seconds); they cover the whole machine's CPU packages,"
                + " load generator included, not DRAM, disks or NIC";
        return PowerMeter.of(method, () -> {
            long startNanos = System.nanoTime();
            long[] before = readOrThrow(counters);
            return u -> {
                long[] after = readOrThrow(counters);
                double seconds = (System.nanoTime() - startNanos) / 1e9;
                try {
                    return new PowerReading(counters.joulesBetween(before, after) / seconds, PowerReading.MEASURED);
                } catch (IOException e) {
                    throw new UncheckedIOException("reading RAPL counters", e);
                }
            };
        });
    }

    private static long[] readOrThrow(RaplCounters counters) {
        try {
            return counters.read();
        } catch (IOException e) {
            throw new UncheckedIOException("reading RAPL counters " + counters.zones(), e);
        }
    }
}
