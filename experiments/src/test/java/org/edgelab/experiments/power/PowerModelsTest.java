package org.edgelab.experiments.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.SettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Modelled and measured power, RAPL read from a powercap tree written in a temporary directory. */
class PowerModelsTest {

    private static final PowerMeter.Utilisation TWO_CORES_ONE_DISK = new PowerMeter.Utilisation(1, 2, 1);

    @TempDir
    Path dir;

    private static PowerMeter meter(String model, Map<String, String> settings) {
        return PowerModels.meter(model, PluginSettings.of(settings), "test");
    }

    private Path zone(String name, long energy, long max) throws IOException {
        Path zone = Files.createDirectories(dir.resolve(name));
        Files.writeString(zone.resolve("energy_uj"), energy + "\n");
        Files.writeString(zone.resolve("max_energy_range_uj"), max + "\n");
        return zone;
    }

    @Test
    void registryHoldsTheBuiltInModels() {
        assertThat(PowerModels.registry().names()).containsExactly("linear", "rapl");
        assertThat(PowerModels.get("linear")).isInstanceOf(LinearPowerModel.class);
    }

    @Test
    void linearIsModelledFromTheCoefficients() {
        Map<String, String> s = Map.of("idle_w", "40", "w_per_busy_core", "10", "w_per_active_disk", "5", "nic_w", "3");
        PowerMeter meter = meter("linear", s);
        assertThat(meter.start().finish(TWO_CORES_ONE_DISK)).isEqualTo(new PowerReading(40 + 20 + 5 + 3, PowerReading.MODELLED));
        assertThat(meter.method()).startsWith("modelled").contains("idle 40.0 W");
        assertThatThrownBy(() -> new LinearPowerModel().validate(PluginSettings.of(Map.of("idle_w", "40"))))
                .isInstanceOf(SettingException.class).extracting(e -> ((SettingException) e).key()).isEqualTo("w_per_busy_core");
    }

    @Test
    void noModelGivesNoFigure() {
        PowerMeter meter = meter("none", Map.of());
        assertThat(meter.start().finish(TWO_CORES_ONE_DISK)).isEqualTo(PowerReading.ABSENT);
        assertThat(meter.method()).startsWith("none");
    }

    @Test
    void raplIsMeasuredFromThePackageCountersAndSubZonesAreNotAddedTwice() throws IOException, InterruptedException {
        Path package0 = zone("intel-rapl:0", 1_000_000, 262_143_328_850L);
        Path package1 = zone("intel-rapl:1", 5_000_000, 262_143_328_850L);
        zone("intel-rapl:0:0", 0, 262_143_328_850L); // core sub-zone: inside package 0
        PowerMeter meter = meter("rapl", Map.of("powercap_root", dir.toString()));
        assertThat(meter.method()).startsWith("measured").contains("intel-rapl:0").contains("intel-rapl:1").doesNotContain("intel-rapl:0:0");
        PowerMeter.Window window = meter.start();
        long start = System.nanoTime();
        Thread.sleep(200);
        // 30 J and 10 J used; sub-zone counter jumps too but must not count
        Files.writeString(package0.resolve("energy_uj"), "31000000");
        Files.writeString(package1.resolve("energy_uj"), "15000000");
        Files.writeString(dir.resolve("intel-rapl:0:0/energy_uj"), "999000000");
        PowerReading reading = window.finish(TWO_CORES_ONE_DISK);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(reading.source()).isEqualTo(PowerReading.MEASURED);
        assertThat(reading.watts()).isCloseTo(40 / seconds, within(40 / seconds * 0.1));
    }

    @Test
    void raplCounterWrapAroundIsCountedOnce() throws IOException {
        Path zone = zone("intel-rapl:0", 990, 1000);
        RaplCounters counters = RaplCounters.open(dir).counters().orElseThrow();
        long[] before = counters.read();
        Files.writeString(zone.resolve("energy_uj"), "20");
        assertThat(counters.joulesBetween(before, counters.read())).isCloseTo(30e-6, within(1e-12));
    }

    @Test
    void unreadableRaplGivesNoFigureWithTheReasonOrFallsBackToTheLinearModel() {
        Path absent = dir.resolve("no-powercap");
        PowerMeter none = meter("rapl", Map.of("powercap_root", absent.toString()));
        assertThat(none.start().finish(TWO_CORES_ONE_DISK)).isEqualTo(PowerReading.ABSENT);
        assertThat(none.method()).startsWith("none").contains("RAPL unavailable").contains(absent.toString());

        PowerMeter fallback = meter("rapl", Map.of("powercap_root", absent.toString(), "fallback", "linear",
                "idle_w", "40", "w_per_busy_core", "10"));
        assertThat(fallback.start().finish(TWO_CORES_ONE_DISK)).isEqualTo(new PowerReading(60, PowerReading.MODELLED));
        assertThat(fallback.method()).contains("RAPL unavailable").contains("fallback modelled");
        assertThatThrownBy(() -> new RaplPowerModel().validate(PluginSettings.of(Map.of("fallback", "guess"))))
                .isInstanceOf(SettingException.class).hasMessageContaining("none, linear");
    }

    @Test
    void thisMachinesRaplIsEitherReadableOrExplained() {
        RaplCounters.Result result = RaplCounters.open(RaplCounters.DEFAULT_ROOT);
        assertThat(result.counters().isPresent() != !result.reason().isEmpty()).isTrue();
    }
}
