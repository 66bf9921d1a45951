package org.edgelab.experiments.target;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.edgelab.plugin.Setting;
import org.edgelab.units.ByteSize;

/**
 * The memory a server under test may use, for the targets that {@link Target#runsServerInCgroup() run it in a
 * cgroup}: {@code target_settings.memory} if the build gives it, otherwise the hardware assumptions' memory; and
 * whether a run may go on unbounded where the machine cannot enforce the limit ({@code target_settings.memory_fallback:
 * unbounded}, or {@code hardware.memory_fallback: unbounded}). Stateless and thread-safe.
 */
public final class ServerMemory {

    /** The smallest limit accepted: below it no server starts. */
    public static final long MINIMUM = 16L << 20;

    /** {@code target_settings.memory}: the server's memory limit, page cache included. */
    public static final Setting MEMORY = new Setting("memory", null,
            "the server's memory limit, page cache included (a cgroup; default: the hardware's memory)");
    /** {@code target_settings.memory_fallback}: {@code unbounded} lets a cell run without the limit where it cannot be enforced. */
    public static final Setting FALLBACK = new Setting("memory_fallback", null,
            "unbounded: run without the memory limit where this machine cannot enforce it (the manifest says so)");

    /** Both settings, for a target's settings list. */
    public static final List<Setting> SETTINGS = List.of(MEMORY, FALLBACK);

    /** The value of {@code memory_fallback} that allows an unbounded run. */
    public static final String UNBOUNDED = "unbounded";

    private ServerMemory() {
    }

    /** Checks {@code memory} and {@code memory_fallback} of {@code settings}; throws {@link BuildValidationException}. */
    public static void validate(Map<String, String> settings) {
        TargetSettings.get(settings, MEMORY.name()).ifPresent(ServerMemory::parse);
        TargetSettings.get(settings, FALLBACK.name()).ifPresent(v -> {
            if (!v.equals(UNBOUNDED)) {
                throw new BuildValidationException("target_settings", "memory_fallback is '" + UNBOUNDED + "' or absent, got '" + v + "'");
            }
        });
    }

    /** The limit for {@code build}: its {@code memory} setting, else {@code hardwareBytes} (0: none stated, empty). */
    public static OptionalLong limit(ServerBuild build, long hardwareBytes) {
        return TargetSettings.get(build.targetSettings(), MEMORY.name()).map(v -> OptionalLong.of(parse(v)))
                .orElse(hardwareBytes > 0 ? OptionalLong.of(hardwareBytes) : OptionalLong.empty());
    }

    /** Whether the build's {@code memory_fallback} is {@code unbounded}. */
    public static boolean fallbackAllowed(ServerBuild build) {
        return TargetSettings.get(build.targetSettings(), FALLBACK.name()).filter(UNBOUNDED::equals).isPresent();
    }

    private static long parse(String value) {
        long bytes;
        try {
            bytes = ByteSize.parse(value);
        } catch (IllegalArgumentException e) {
            throw new BuildValidationException("target_settings", "memory: " + e.getMessage());
        }
        if (bytes < MINIMUM) {
            throw new BuildValidationException("target_settings", "memory " + value + " is below " + ByteSize.format(MINIMUM)
                    + ", too little for any server");
        }
        return bytes;
    }
}
