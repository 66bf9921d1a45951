package org.edgelab.container;

import java.util.Map;
import org.edgelab.experiments.target.BuildValidationException;
import org.edgelab.units.ByteSize;

/**
 * The CPU and memory limits of the cache server's container: the hardware assumptions' cores and
 * memory, unless the build's target settings {@value #CPUS} (a decimal number of CPUs, e.g. {@code 1.5})
 * or {@value #MEMORY} (a size, e.g. {@code 2GiB}) override them. Docker refuses more CPUs than the
 * machine has, so the CPU limit is capped at the host's cores ({@link #capped()} says whether it was).
 * Zero means no limit. Immutable.
 *
 * @param cpus        CPUs the container may use, 0 for no limit
 * @param memoryBytes memory the container may use, 0 for no limit
 * @param capped      whether the wanted CPUs exceeded the host's and were capped
 */
public record ContainerLimits(double cpus, long memoryBytes, boolean capped) {

    /** Target setting: CPUs (decimal). */
    public static final String CPUS = "cpus";
    /** Target setting: memory (a size such as {@code 512MiB}). */
    public static final String MEMORY = "memory";
    /** The least memory limit accepted: a JVM with a cache server needs more than Docker's 6 MB minimum. */
    public static final long MIN_MEMORY = 64L * 1024 * 1024;

    /**
     * The limits for a build given {@code cores} and {@code memoryBytes} by the hardware assumptions, on a machine
     * with {@code hostCores} cores.
     */
    public static ContainerLimits of(int cores, long memoryBytes, Map<String, String> targetSettings, int hostCores) {
        double cpus = targetSettings.containsKey(CPUS) ? parseCpus(targetSettings.get(CPUS)) : Math.max(0, cores);
        long memory = targetSettings.containsKey(MEMORY) ? parseMemory(targetSettings.get(MEMORY)) : Math.max(0, memoryBytes);
        boolean capped = cpus > hostCores;
        return new ContainerLimits(capped ? hostCores : cpus, memory, capped);
    }

    /** The CPU limit in Docker's unit (10^-9 CPUs), 0 for none. */
    public long nanoCpus() {
        return Math.round(cpus * 1e9);
    }

    /** Checks the values of {@value #CPUS} and {@value #MEMORY}, if present. */
    public static void validate(Map<String, String> targetSettings) {
        if (targetSettings.containsKey(CPUS)) {
            parseCpus(targetSettings.get(CPUS));
        }
        if (targetSettings.containsKey(MEMORY)) {
            parseMemory(targetSettings.get(MEMORY));
        }
    }

    private static double parseCpus(String text) {
        double cpus;
        try {
            cpus = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new BuildValidationException("target_settings", "cpus: '" + text + "' is not a number of CPUs (e.g. 2 or 1.5)");
        }
        if (!(cpus >= 0.01) || Double.isInfinite(cpus)) {
            throw new BuildValidationException("target_settings", "cpus: " + text + " is out of range (at least 0.01)");
        }
        return cpus;
    }

    private static long parseMemory(String text) {
        long bytes;
        try {
            bytes = ByteSize.parse(text);
        } catch (IllegalArgumentException e) {
            throw new BuildValidationException("target_settings", "memory: " + e.getMessage());
        }
        if (bytes < MIN_MEMORY) {
            throw new BuildValidationException("target_settings", "memory: " + text + " is below the least a cache server's JVM needs ("
                    + ByteSize.format(MIN_MEMORY) + ")");
        }
        return bytes;
    }
}
