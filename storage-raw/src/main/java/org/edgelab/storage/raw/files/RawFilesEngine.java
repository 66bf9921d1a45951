package org.edgelab.storage.raw.files;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.raw.io.ReadAhead;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngine;

/** The {@code raw-files} engine plugin: opens a {@link RawFilesStore}. Stateless and thread-safe. */
public final class RawFilesEngine implements StorageEngine {

    /** The name the engine is selected by. */
    public static final String NAME = "raw-files";

    private static final List<Setting> SPECS = List.of(
            new Setting("dir", null, "directory holding the object files (created if missing; required)"),
            new Setting("capacity", "1GiB", "byte budget for object files (headers and bodies)"),
            new Setting("policy", "lru", "eviction policy, by name (lru, fifo, sieve, s3-fifo, ...)"),
            new Setting("sync", "none", "none: no fsync (survives a process crash); data: fdatasync each "
                    + "file before its rename; full: also fsync the directory, durable when commit returns"),
            new Setting("levels", "1:2", "nginx-style hashed directory levels: 1 to 3 levels of 1 or 2 hex characters"),
            new Setting("recency-interval", "10s", "how often when each object was last used is written to a file, so"
                    + " that a restarted store evicts the least recently used first, not the first written; 0 = only at"
                    + " close (a crash then loses the order)"),
            ReadAhead.FILES_SETTING);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one file per object under hashed directories, renamed into place on commit (like nginx proxy_cache)";
    }

    @Override
    public List<Setting> settings() {
        return SPECS;
    }

    @Override
    public ObjectStore open(PluginSettings settings) throws IOException {
        settings.requireOnly("engine", NAME, SPECS);
        Path dir = Path.of(settings.required("dir"));
        long capacity = settings.bytes("capacity", 1L << 30);
        String policy = settings.string("policy", "lru");
        SyncMode sync = SyncMode.parse(settings.string("sync", "none"));
        String levels = settings.string("levels", "1:2");
        ReadAhead readAhead = ReadAhead.parse(settings.string("read-ahead", ReadAhead.FILES_SETTING.defaultValue()));
        long recencyMillis = settings.duration("recency-interval",
                java.time.Duration.ofMillis(RawFilesStore.DEFAULT_RECENCY_INTERVAL_MILLIS)).toMillis();
        return RawFilesStore.open(dir, capacity, policy, sync, levels, readAhead, recencyMillis);
    }
}
