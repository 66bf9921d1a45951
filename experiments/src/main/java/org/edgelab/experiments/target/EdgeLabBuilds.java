package org.edgelab.experiments.target;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.UnknownPluginException;
import org.edgelab.storage.api.StorageEngine;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.storage.api.StoreDirectories;
import org.edgelab.units.Durations;

/**
 * What every target that runs EdgeLab's own cache server ({@code embedded}, {@code process},
 * {@code container}) does with a build the same way: check its engine and settings against the storage
 * engine registry, and resolve {@code ${store}} and the engine's directory setting. Stateless and
 * thread-safe.
 */
public final class EdgeLabBuilds {

    /** The setting value that stands for the build's own store directory. */
    public static final String STORE_PLACEHOLDER = "${store}";
    /** The target setting that turns on the cache's write shedding ({@code serve --store-write-shed-after}). */
    public static final Setting STORE_WRITE_SHED_AFTER = new Setting("store_write_shed_after", "0",
            "pass new fills through unstored once the store's write threads have all been busy this long without"
                    + " finishing a write (serve --store-write-shed-after; 0: never)");

    private EdgeLabBuilds() {
    }

    /** Checks the engine exists and takes these settings; {@code none} (no cache) takes no settings. */
    public static void validate(ServerBuild build) {
        if (build.engine().equals(ServerBuild.NO_CACHE)) {
            if (!build.settings().isEmpty()) {
                throw new BuildValidationException("settings", "the no-cache baseline (engine: none) takes no settings");
            }
            return;
        }
        StorageEngine engine;
        try {
            engine = StorageEngines.get(build.engine());
        } catch (UnknownPluginException e) {
            throw new BuildValidationException("engine", e.getMessage() + " (or none: no cache, straight to the origin)");
        }
        try {
            PluginSettings.of(build.settings()).requireOnly(engine.name(), engine.settings());
        } catch (IllegalArgumentException e) {
            throw new BuildValidationException("settings", e.getMessage());
        }
    }

    /**
     * The build's {@link #STORE_WRITE_SHED_AFTER} (zero when not set); throws {@link BuildValidationException} for a
     * value that is not a time of zero or more.
     */
    public static Duration storeWriteShedAfter(ServerBuild build) {
        String v = TargetSettings.get(build.targetSettings(), STORE_WRITE_SHED_AFTER.name()).orElse("0");
        try {
            Duration d = Durations.parse(v);
            if (!d.isNegative()) {
                return d;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new BuildValidationException("target_settings", STORE_WRITE_SHED_AFTER.name()
                + " is a time such as 200ms (0: never), got '" + v + "'");
    }

    /** Empty when the build's engine is on the class path (or is {@code none}). */
    public static Optional<String> unavailableReason(ServerBuild build) {
        if (build.engine().equals(ServerBuild.NO_CACHE) || StorageEngines.names().contains(build.engine())) {
            return Optional.empty();
        }
        return Optional.of("storage engine '" + build.engine() + "' is not on the class path (known: "
                + String.join(", ", StorageEngines.names()) + ")");
    }

    /**
     * The build's settings with {@code ${store}} replaced by {@code storeDir}, and the engine's required
     * directory setting ({@code dir}, {@code disks} or {@code path}; {@code disk.*} for the tiered engine's
     * disk engine) set to it when the descriptor leaves it out.
     */
    public static Map<String, String> storeSettings(ServerBuild build, Path storeDir) {
        String dir = storeDir.toAbsolutePath().toString();
        Map<String, String> out = new LinkedHashMap<>();
        build.settings().forEach((k, v) -> out.put(k, v.replace(STORE_PLACEHOLDER, dir)));
        return StoreDirectories.fill(build.engine(), PluginSettings.of(out), storeDir).asMap();
    }

    /** Whether the build keeps objects on disk (the power model counts its disks as active). */
    public static boolean usesDisk(ServerBuild build) {
        return !build.engine().equals("memory") && !build.engine().equals(ServerBuild.NO_CACHE);
    }
}
