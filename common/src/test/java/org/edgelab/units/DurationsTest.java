package org.edgelab.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void parsesEveryUnit() {
        assertThat(Durations.parse("250ns")).isEqualTo(Duration.ofNanos(250));
        assertThat(Durations.parse("40us")).isEqualTo(Duration.ofNanos(40_000));
        assertThat(Durations.parse("200ms")).isEqualTo(Duration.ofMillis(200));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse(" 10 m ")).isEqualTo(Duration.ofMinutes(10));
        assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(Durations.parse("PT30S")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse(" 0 ")).as("zero needs no unit").isEqualTo(Duration.ZERO);
    }

    @Test
    void refusesToGuessAMissingUnit() {
        assertThatThrownBy(() -> Durations.parse("30"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'30'").hasMessageContaining("ms");
    }

    @Test
    void namesAnUnknownUnit() {
        assertThatThrownBy(() -> Durations.parse("5 fortnights"))
                .hasMessageContaining("unknown unit 'fortnights'");
        assertThatThrownBy(() -> Durations.parse("PTxyz")).hasMessageContaining("'PTxyz' is not a duration");
    }

    @Test
    void formatsCompactly() {
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(Durations.format(Duration.ofMillis(200))).isEqualTo("200ms");
        assertThat(Durations.format(Duration.ofMinutes(10))).isEqualTo("10m");
        assertThat(Durations.format(Duration.ofHours(3))).isEqualTo("3h");
        assertThat(Durations.format(Duration.ofNanos(1500))).isEqualTo("1.5us");
        assertThat(Durations.parse(Durations.format(Duration.ofMillis(40)))).isEqualTo(Duration.ofMillis(40));
    }
}
