package org.edgelab.peers.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.edgelab.experiments.target.ServerCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The access-log counters without nginx: only complete lines count, each once, however the log grows. */
class NginxAccessLogTest {

    @TempDir
    Path dir;

    @Test
    void countsCompleteLinesOnceAndAddsUpstreamLengthsOfEveryUpstreamResponse() throws Exception {
        Path file = dir.resolve("access.log");
        NginxAccessLog log = new NginxAccessLog(file);
        assertThat(log.read()).isEqualTo(new ServerCounters(0, 0, 0, 0, 0));

        append(file, "MISS 1000 1000\nHIT 1000 -\nHIT-STALE 10 -\nPASS 5 5\nMISS 2000 1000, 1000\nMI");
        assertThat(log.read()).isEqualTo(new ServerCounters(5, 2, 2, 4015, 3005));
        assertThat(log.read()).as("nothing new").isEqualTo(new ServerCounters(5, 2, 2, 4015, 3005));

        append(file, "SS 7 7\n" + "HIT 3 -\n".repeat(20_000));
        assertThat(log.read()).isEqualTo(new ServerCounters(20_006, 20_002, 3, 4015 + 7 + 60_000, 3012));
    }

    private static void append(Path file, String text) throws Exception {
        Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
