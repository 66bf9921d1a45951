package org.edgelab.experiments.power;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The Linux powercap RAPL package counters under a root ({@code /sys/class/powercap}): every top-level zone
 * {@code intel-rapl:N} (a CPU package; its sub-zones are inside it and not added again), read from
 * {@code energy_uj}, with wrap-around handled through {@code max_energy_range_uj}. Immutable and
 * thread-safe.
 */
public final class RaplCounters {

    /** The default powercap root. */
    public static final Path DEFAULT_ROOT = Path.of("/sys/class/powercap");

    private final List<Path> zones;

    private RaplCounters(List<Path> zones) {
        this.zones = List.copyOf(zones);
    }

    /** The package zones under {@code root} if at least one is readable; otherwise why not. */
    public static Result open(Path root) {
        if (!Files.isDirectory(root)) {
            return new Result(Optional.empty(), "no " + root + " (RAPL not exposed: a virtual machine, a container without"
                    + " /sys, or a CPU without RAPL)");
        }
        List<Path> zones = new ArrayList<>();
        try (Stream<Path> entries = Files.list(root)) {
            entries.filter(p -> p.getFileName().toString().matches("intel-rapl:\\d+")).sorted().forEach(zones::add);
        } catch (IOException e) {
            return new Result(Optional.empty(), "cannot list " + root + ": " + e.getMessage());
        }
        if (zones.isEmpty()) {
            return new Result(Optional.empty(), "no intel-rapl:N package zone under " + root);
        }
        for (Path zone : zones) {
            try {
                read(zone.resolve("energy_uj"));
            } catch (IOException | NumberFormatException e) {
                return new Result(Optional.empty(), zone.resolve("energy_uj") + " cannot be read (" + e.getMessage()
                        + "); since Linux 5.10 only root can read it: sudo chmod o+r " + root + "/intel-rapl:*/energy_uj");
            }
        }
        return new Result(Optional.of(new RaplCounters(zones)), "");
    }

    /**
     * The outcome of {@link #open(Path)}.
     *
     * @param counters the counters when readable
     * @param reason   why they are not, empty when they are
     */
    public record Result(Optional<RaplCounters> counters, String reason) {
    }

    /** The zone directories read. */
    public List<Path> zones() {
        return zones;
    }

    /** The counter of every zone now, in microjoules. */
    public long[] read() throws IOException {
        long[] out = new long[zones.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = read(zones.get(i).resolve("energy_uj"));
        }
        return out;
    }

    /** Joules between two readings, counting a wrapped counter as having passed its maximum once. */
    public double joulesBetween(long[] before, long[] after) throws IOException {
        double microjoules = 0;
        for (int i = 0; i < zones.size(); i++) {
            long delta = after[i] - before[i];
            if (delta < 0) {
                delta += read(zones.get(i).resolve("max_energy_range_uj"));
            }
            microjoules += delta;
        }
        return microjoules / 1e6;
    }

    private static long read(Path file) throws IOException {
        return Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).strip());
    }
}
