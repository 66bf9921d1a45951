package org.edgelab.experiments.descriptor.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.edgelab.experiments.descriptor.Descriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code load.requests}: a bound on each measured run's requests, 0 or absent for none, a bad value refused at its line. */
class RequestsFieldTest {

    @TempDir
    Path dir;

    private Descriptor.LoadProfile load(String loadLines) throws IOException {
        Path file = dir.resolve("requests.yaml");
        Files.writeString(file, "name: x\nservers: [{engine: memory}]\nload:\n" + loadLines);
        return DescriptorLoader.load(file.toString(), false).load();
    }

    private DescriptorException refused(String loadLines) throws IOException {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "name: x\nservers: [{engine: memory}]\nload:\n" + loadLines);
        DescriptorException e = catchThrowableOfType(() -> DescriptorLoader.load(file.toString(), false), DescriptorException.class);
        assertThat(e).as("refused:\n" + loadLines).isNotNull();
        assertThat(e.getMessage()).startsWith(file + ":" + e.line() + ":" + e.column() + ":");
        return e;
    }

    @Test
    void aCountBoundsTheMeasuredRunAndTheDurationStaysItsCap() throws IOException {
        Descriptor.LoadProfile bounded = load("  duration: 45s\n  requests: 2000\n");
        assertThat(bounded.requests()).isEqualTo(2000);
        assertThat(bounded.duration()).isEqualTo(Duration.ofSeconds(45));
        assertThat(load("  duration: 5s\n").requests()).as("absent: no bound").isZero();
        assertThat(load("  requests: 0\n").requests()).as("0: no bound").isZero();
    }

    @Test
    void aNegativeOrNonIntegerCountIsRefusedAtItsLine() throws IOException {
        DescriptorException negative = refused("  duration: 5s\n  requests: -1\n");
        assertThat(negative.line()).isEqualTo(5);
        assertThat(negative.field()).isEqualTo("load.requests");
        assertThat(negative.getMessage()).contains("at least 0").contains("-1");

        DescriptorException fraction = refused("  requests: 1.5\n");
        assertThat(fraction.line()).isEqualTo(4);
        assertThat(fraction.field()).isEqualTo("load.requests");
        assertThat(fraction.getMessage()).contains("a whole number");

        DescriptorException word = refused("  requests: many\n");
        assertThat(word.line()).isEqualTo(4);
        assertThat(word.field()).isEqualTo("load.requests");
        assertThat(word.getMessage()).contains("a whole number");
    }

    @Test
    void wrkCannotStopAfterACountAndSaysSo() throws IOException {
        DescriptorException wrk = refused("  duration: 5s\n  requests: 100\n  client: wrk\n");
        assertThat(wrk.field()).isEqualTo("load.requests");
        assertThat(wrk.getMessage()).contains("wrk").contains("loadgen");
    }
}
