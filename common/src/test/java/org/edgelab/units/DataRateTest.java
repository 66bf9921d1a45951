package org.edgelab.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DataRateTest {

    @Test
    void bitsInEveryWrittenForm() {
        assertThat(DataRate.parse("1Gbit/s").bitsPerSecond()).isEqualTo(1_000_000_000L);
        assertThat(DataRate.parse("1gbit").bitsPerSecond()).isEqualTo(1_000_000_000L);
        assertThat(DataRate.parse("10 Gbit/s").bitsPerSecond()).isEqualTo(10_000_000_000L);
        assertThat(DataRate.parse("100mbps").bitsPerSecond()).isEqualTo(100_000_000L);
        assertThat(DataRate.parse("5.6Mbit").bitsPerSecond()).isEqualTo(5_600_000L);
        assertThat(DataRate.parse("500kbit/s").bitsPerSecond()).isEqualTo(500_000L);
        assertThat(DataRate.parse("1Mibit/s").bitsPerSecond()).isEqualTo(1L << 20);
        assertThat(DataRate.parse("64bit/s").bitsPerSecond()).isEqualTo(64);
    }

    @Test
    void bytesPerSecondWithAndWithoutTheSlash() {
        assertThat(DataRate.parse("70MB/s").bitsPerSecond()).isEqualTo(560_000_000L);
        assertThat(DataRate.parse("70MB/s").wholeBytesPerSecond()).isEqualTo(70_000_000L);
        assertThat(DataRate.parse("10MiB/s").wholeBytesPerSecond()).isEqualTo(10L << 20);
        assertThat(DataRate.parse("125 MB / s")).isEqualTo(DataRate.parse("1Gbit/s"));
        assertThat(DataRate.parse("70MB").wholeBytesPerSecond()).isEqualTo(70_000_000L); // the older form
        assertThat(DataRate.parse("1MiB").wholeBytesPerSecond()).isEqualTo(1L << 20);
        assertThat(DataRate.parse("0")).isEqualTo(DataRate.ZERO);
    }

    @Test
    void ambiguousOrUnitlessRatesAreRefusedSayingWhatToWrite() {
        assertThatThrownBy(() -> DataRate.parse("100kb/s")).hasMessageContaining("ambiguous")
                .hasMessageContaining("100kbit/s").hasMessageContaining("100kB/s");
        assertThatThrownBy(() -> DataRate.parse("1000000")).hasMessageContaining("no unit");
        assertThatThrownBy(() -> DataRate.parse("10 MX")).hasMessageContaining("unknown unit 'MX'").hasMessageContaining("Gbit/s");
        assertThatThrownBy(() -> DataRate.parse("1xbit")).hasMessageContaining("unknown prefix 'x'");
        assertThatThrownBy(() -> DataRate.parse("fast")).hasMessageContaining("not a data rate");
        assertThatThrownBy(() -> DataRate.parse("-1Gbit/s")).hasMessageContaining("not a data rate");
        assertThatThrownBy(() -> DataRate.parse("0.5bit/s")).hasMessageContaining("whole number");
        assertThatThrownBy(() -> DataRate.parse(null)).hasMessageContaining("missing");
    }

    @Test
    void formatsWithUnits() {
        assertThat(DataRate.parse("1gbit").formatBits()).isEqualTo("1 Gbit/s");
        assertThat(new DataRate(4_530_000_000L).toString()).isEqualTo("4.53 Gbit/s");
        assertThat(DataRate.parse("70MB/s").formatBytes()).isEqualTo("70 MB/s");
        assertThat(DataRate.ZERO.formatBits()).isEqualTo("0 bit/s");
    }
}
