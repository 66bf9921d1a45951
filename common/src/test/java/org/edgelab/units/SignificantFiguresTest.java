package org.edgelab.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Rounding to significant digits without trailing zeros, including round numbers whose zeros are significant. */
class SignificantFiguresTest {

    @Test
    void roundsAndDropsOnlyTrailingZerosAfterThePoint() {
        assertThat(SignificantFigures.format(0.05 * 100, 3)).isEqualTo("5");
        assertThat(SignificantFigures.format(2.5, 3)).isEqualTo("2.5");
        assertThat(SignificantFigures.format(100, 3)).as("a round number keeps its zeros").isEqualTo("100");
        assertThat(SignificantFigures.format(50, 3)).isEqualTo("50");
        assertThat(SignificantFigures.format(1234.5678, 6)).isEqualTo("1234.57");
        assertThat(SignificantFigures.format(123456789, 3)).isEqualTo("123000000");
        assertThat(SignificantFigures.format(0.000123456, 2)).isEqualTo("0.00012");
        assertThatThrownBy(() -> SignificantFigures.format(Double.NaN, 3)).isInstanceOf(IllegalArgumentException.class);
    }
}
