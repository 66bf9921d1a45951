package org.edgelab.origin.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FaultRulesTest {

    @Test
    void parsesEveryQueryParameter() {
        FaultPlan plan = FaultPlan.fromParameters(Map.of(
                "status", List.of("503"), "reset-after", List.of("1KiB"), "first-byte-delay", List.of("200ms"),
                "corrupt-at", List.of("7"), "cache-control", List.of("no-cache"), "rate", List.of("10MiB"),
                "chunked", List.of("true"), "unrelated", List.of("x")));
        assertThat(plan).isEqualTo(new FaultPlan(503, 1024, Duration.ofMillis(200), 7, "no-cache", 10L << 20, true));
        assertThat(FaultPlan.fromParameters(Map.of("v", List.of("1")))).isSameAs(FaultPlan.NONE);
    }

    @Test
    void badValuesAreRejectedWithTheParameterNamed() {
        assertThatThrownBy(() -> FaultPlan.fromParameters(Map.of("status", List.of("abc"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("status=abc");
        assertThatThrownBy(() -> FaultPlan.fromParameters(Map.of("status", List.of("200"))))
                .hasMessageContaining("between 300 and 599");
        assertThatThrownBy(() -> FaultPlan.fromParameters(Map.of("rate", List.of("0"))))
                .hasMessageContaining("rate=0");
        assertThatThrownBy(() -> FaultPlan.fromParameters(Map.of("first-byte-delay", List.of("soon"))))
                .hasMessageContaining("first-byte-delay=soon");
        assertThatThrownBy(() -> FaultPlan.fromParameters(Map.of("chunked", List.of("maybe"))))
                .hasMessageContaining("true or false");
    }

    @Test
    void rulesFireEveryNthRequestAndLaterRulesOverrideEarlierOnes() {
        FaultRules rules = FaultRules.parse("every=2&status=503; every=3&status=500&cache-control=no-store;first-byte-delay=5ms");
        assertThat(rules.rules()).hasSize(3);
        assertThat(rules.planFor(1)).isEqualTo(new FaultPlan(0, -1, Duration.ofMillis(5), -1, null, 0, false));
        assertThat(rules.planFor(2).status()).isEqualTo(503);
        assertThat(rules.planFor(3).status()).isEqualTo(500);
        assertThat(rules.planFor(6).status()).isEqualTo(500);
        assertThat(rules.planFor(6).cacheControl()).isEqualTo("no-store");
        assertThat(rules.planFor(4).cacheControl()).isNull();
    }

    @Test
    void aQueryPlanOverridesTheConfiguredOne() {
        FaultPlan configured = FaultRules.parse("status=503&rate=1MiB").planFor(1);
        FaultPlan combined = configured.overriddenBy(FaultPlan.fromParameters(Map.of("status", List.of("404"))));
        assertThat(combined.status()).isEqualTo(404);
        assertThat(combined.rateBytesPerSecond()).isEqualTo(1L << 20);
    }

    @Test
    void aRateTakesEveryUnitOfTheSharedParser() {
        assertThat(FaultRules.parse("rate=1MiB/s").planFor(1).rateBytesPerSecond()).isEqualTo(1L << 20);
        assertThat(FaultRules.parse("rate=80Mbit/s").planFor(1).rateBytesPerSecond()).isEqualTo(10_000_000L);
        assertThatThrownBy(() -> FaultRules.parse("rate=100kb/s")).hasMessageContaining("rate=100kb/s").hasMessageContaining("ambiguous");
    }

    @Test
    void badRulesAreRejectedNamingTheRule() {
        assertThatThrownBy(() -> FaultRules.parse("every=0&status=503")).hasMessageContaining("every=0&status=503");
        assertThatThrownBy(() -> FaultRules.parse("every=5")).hasMessageContaining("sets no fault");
        assertThatThrownBy(() -> FaultRules.parse("stauts=503")).hasMessageContaining("unknown parameter 'stauts'");
        assertThat(FaultRules.parse(" ")).isEqualTo(FaultRules.none());
    }
}
