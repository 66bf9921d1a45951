package org.edgelab.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ByteSizeTest {

    @Test
    void parsesDecimalBinaryAndJvmStyleUnits() {
        assertThat(ByteSize.parse("0")).isZero();
        assertThat(ByteSize.parse("123")).isEqualTo(123);
        assertThat(ByteSize.parse("7b")).isEqualTo(7);
        assertThat(ByteSize.parse("100KB")).isEqualTo(100_000);
        assertThat(ByteSize.parse("100 kb")).isEqualTo(100_000);
        assertThat(ByteSize.parse("50MB")).isEqualTo(50_000_000);
        assertThat(ByteSize.parse("2GB")).isEqualTo(2_000_000_000L);
        assertThat(ByteSize.parse("1TB")).isEqualTo(1_000_000_000_000L);
        assertThat(ByteSize.parse("1KiB")).isEqualTo(1024);
        assertThat(ByteSize.parse("1MiB")).isEqualTo(1 << 20);
        assertThat(ByteSize.parse("10 MiB")).isEqualTo(10L << 20);
        assertThat(ByteSize.parse("1GiB")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("1TiB")).isEqualTo(1L << 40);
        assertThat(ByteSize.parse("512m")).isEqualTo(512L << 20);
        assertThat(ByteSize.parse("64k")).isEqualTo(64 * 1024);
        assertThat(ByteSize.parse("4g")).isEqualTo(4L << 30);
        assertThat(ByteSize.parse(" 1.5MiB ")).isEqualTo(3L << 19);
    }

    @Test
    void badUnitsNameTheTextAndTheAcceptedForms() {
        assertThatThrownBy(() -> ByteSize.parse("10 MX"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'10 MX'").hasMessageContaining("'MX'").hasMessageContaining("KiB");
        assertThatThrownBy(() -> ByteSize.parse("lots"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'lots'");
        assertThatThrownBy(() -> ByteSize.parse("-5MB"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'-5MB'");
        assertThatThrownBy(() -> ByteSize.parse("1.5b"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole number");
        assertThatThrownBy(() -> ByteSize.parse("99999999999TiB"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too large");
        assertThatThrownBy(() -> ByteSize.parse(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing");
        assertThatThrownBy(() -> ByteSize.parse(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("''");
    }

    @Test
    void formatsWithBinaryUnits() {
        assertThat(ByteSize.format(0)).isEqualTo("0 B");
        assertThat(ByteSize.format(1023)).isEqualTo("1023 B");
        assertThat(ByteSize.format(1024)).isEqualTo("1 KiB");
        assertThat(ByteSize.format(3L << 19)).isEqualTo("1.5 MiB");
        assertThat(ByteSize.format(256L << 20)).isEqualTo("256 MiB");
        assertThat(ByteSize.format(5L << 40)).isEqualTo("5 TiB");
        assertThat(ByteSize.format((1L << 20) - 1)).as("rounds up into the next unit").isEqualTo("1 MiB");
        assertThat(ByteSize.format(1792)).as("an exact half rounds up").isEqualTo("1.8 KiB");
    }

    @Property(tries = 200)
    void formatIsExactForWholeUnitsAndWithinHalfATenthOtherwise(@ForAll @LongRange(min = 0, max = (1L << 50) - 1) long bytes,
                                                                @ForAll @LongRange(min = 0, max = 1023) long units) {
        assertThat(ByteSize.parse(ByteSize.format(units))).isEqualTo(units);
        assertThat(ByteSize.parse(ByteSize.format(units << 20))).isEqualTo(units << 20);
        String text = ByteSize.format(bytes);
        assertThat(text).as("format of " + bytes).matches("[0-9]+(\\.[0-9])? (B|KiB|MiB|GiB|TiB|PiB)");
        String[] parts = text.split(" ");
        double value = Double.parseDouble(parts[0]);
        long unit = switch (parts[1]) {
            case "B" -> 1L;
            case "KiB" -> 1L << 10;
            case "MiB" -> 1L << 20;
            case "GiB" -> 1L << 30;
            case "TiB" -> 1L << 40;
            default -> 1L << 50;
        };
        assertThat(value).isLessThan(1024);
        // Half a tenth of the unit, with room for the double rounding of an exact half (1792 B = 1.75 KiB -> "1.8 KiB").
        assertThat(Math.abs(value * unit - bytes)).as("error of " + text + " for " + bytes)
                .isLessThanOrEqualTo(0.05 * unit * (1 + 1e-9));
    }
}
