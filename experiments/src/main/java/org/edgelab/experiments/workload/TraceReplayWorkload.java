package org.edgelab.experiments.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.loadgen.workload.TraceWorkload;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.plugin.SettingException;

/**
 * The {@code trace} workload: replays a CSV trace ({@code timestamp,key,size[,range]}, see loadgen's
 * {@link TraceWorkload}) of synthetic objects, timed at its timestamps (divided by {@code speed}) or as
 * fast as the connections allow. No warm-up pass: the cache warms as the trace plays, and every cell
 * replays the same keys. The file is parsed while the descriptor loads, so a bad line fails early.
 * Stateless and thread-safe.
 */
public final class TraceReplayWorkload implements WorkloadPlugin {

    private static final List<Setting> SETTINGS = List.of(
            new Setting("file", null, "the CSV trace, relative to the descriptor's directory (required)"),
            new Setting("speed", "1", "divides the trace's time: 2 replays twice as fast"),
            new Setting("timed", "true", "send each request at its timestamp (false: as fast as the connections allow)"));

    @Override
    public String name() {
        return "trace";
    }

    @Override
    public String description() {
        return "replay a CSV trace (timestamp,key,size[,range]) at its timestamps or as fast as possible";
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    @Override
    public PluginSettings prepare(PluginSettings settings, Path descriptorDirectory) {
        settings.requireOnly("workload 'trace'", SETTINGS);
        Path file = Path.of(settings.required("file"));
        if (!file.isAbsolute() && descriptorDirectory != null) {
            file = descriptorDirectory.resolve(file);
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new SettingException("file", "trace file " + file + " does not exist or cannot be read");
        }
        PluginSettings prepared = settings.with("file", file.toAbsolutePath().normalize().toString());
        try {
            load(prepared);
        } catch (IllegalArgumentException e) {
            throw new SettingException("file", e.getMessage());
        }
        return prepared;
    }

    @Override
    public Workload create(WorkloadRequest request) {
        return load(request.settings());
    }

    private static TraceWorkload load(PluginSettings settings) {
        double speed = settings.number("speed", 1, Double.MIN_VALUE);
        boolean timed = settings.bool("timed", true);
        try {
            return TraceWorkload.load(Path.of(settings.required("file")), "", speed, timed);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + settings.required("file"), e);
        }
    }

    @Override
    public String method() {
        return "trace replay (loadgen TraceWorkload): no warm-up pass, the hit ratio is whatever the trace gives";
    }
}
