package org.edgelab.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.edgelab.experiments.target.BuildValidationException;
import org.junit.jupiter.api.Test;

class ContainerLimitsTest {

    @Test
    void hardwareAssumptionsBecomeLimitsAndTargetSettingsOverrideThem() {
        ContainerLimits fromHardware = ContainerLimits.of(2, 4L << 30, Map.of(), 8);
        assertThat(fromHardware.nanoCpus()).isEqualTo(2_000_000_000L);
        assertThat(fromHardware.memoryBytes()).isEqualTo(4L << 30);
        assertThat(fromHardware.capped()).isFalse();

        ContainerLimits overridden = ContainerLimits.of(2, 4L << 30, Map.of("cpus", "1.5", "memory", "512MiB"), 8);
        assertThat(overridden.nanoCpus()).isEqualTo(1_500_000_000L);
        assertThat(overridden.memoryBytes()).isEqualTo(512L << 20);

        assertThat(ContainerLimits.of(4, 0, Map.of(), 8).memoryBytes()).isZero();
    }

    @Test
    void moreCoresThanTheHostHasAreCappedAndSaidSo() {
        ContainerLimits limits = ContainerLimits.of(32, 0, Map.of(), 2);
        assertThat(limits.cpus()).isEqualTo(2.0);
        assertThat(limits.capped()).isTrue();
    }

    @Test
    void badValuesNameTheTargetSetting() {
        assertThatThrownBy(() -> ContainerLimits.validate(Map.of("cpus", "two"))).isInstanceOf(BuildValidationException.class)
                .hasMessageContaining("cpus: 'two'");
        assertThatThrownBy(() -> ContainerLimits.validate(Map.of("cpus", "0"))).hasMessageContaining("at least 0.01");
        assertThatThrownBy(() -> ContainerLimits.validate(Map.of("memory", "10 MX"))).hasMessageContaining("memory:");
        assertThatThrownBy(() -> ContainerLimits.validate(Map.of("memory", "1MB"))).hasMessageContaining("below");
        ContainerLimits.validate(Map.of("cpus", "0.5", "memory", "1g"));
    }
}
