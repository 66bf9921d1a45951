package org.edgelab.experiments.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code store_write_shed_after} target setting of the targets that run EdgeLab's cache: parsed, defaulted, refused when bad. */
class StoreWriteShedSettingTest {

    private static ServerBuild build(String target, Map<String, String> targetSettings) {
        return new ServerBuild("b", target, "memory", Map.of("capacity", "16MiB"), targetSettings);
    }

    @Test
    void unsetIsNeverAndATimeIsKept() {
        assertThat(EdgeLabBuilds.storeWriteShedAfter(build("embedded", Map.of()))).isZero();
        assertThat(EdgeLabBuilds.storeWriteShedAfter(build("embedded", Map.of("store_write_shed_after", "200ms"))))
                .isEqualTo(Duration.ofMillis(200));
        new EmbeddedTarget().validate(build("embedded", Map.of("store_write_shed_after", "0")));
        new ProcessTarget().validate(build("process", Map.of("store_write_shed_after", "1s")));
    }

    @Test
    void aValueThatIsNotATimeOfZeroOrMoreIsRefusedByEveryTargetWithTheSettingsName() {
        for (String bad : new String[] {"soon", "-5ms", "200"}) {
            assertThatThrownBy(() -> new EmbeddedTarget().validate(build("embedded", Map.of("store_write_shed_after", bad))))
                    .isInstanceOf(BuildValidationException.class).hasMessageContaining("store_write_shed_after")
                    .hasMessageContaining(bad);
            assertThatThrownBy(() -> new ProcessTarget().validate(build("process", Map.of("store_write_shed_after", bad))))
                    .isInstanceOf(BuildValidationException.class).hasMessageContaining("store_write_shed_after");
        }
        assertThatThrownBy(() -> new EmbeddedTarget().validate(build("embedded", Map.of("heap", "1g"))))
                .as("the embedded target takes no other target setting").isInstanceOf(BuildValidationException.class);
    }
}
