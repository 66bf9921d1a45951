package org.edgelab.storage.memory;

import java.util.List;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.Setting;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StorageEngine;
import org.edgelab.storage.eviction.EvictionPolicies;
import org.edgelab.units.ByteSize;

/**
 * The {@code memory} engine: objects in off-heap chunks from a pool bounded by the capacity,
 * evicted by a named policy. Nothing survives a restart. A capacity beyond the JVM's direct memory limit is
 * warned of at open and shown in the stats ({@code capacityFitsDirectMemory}). Stateless and thread-safe.
 */
public final class MemoryEngine implements StorageEngine {

    /** The engine's name in {@link org.edgelab.storage.api.StorageEngines}. */
    public static final String NAME = "memory";
    static final String CAPACITY = "capacity";
    static final String CHUNK_SIZE = "chunk-size";
    static final String POLICY = "policy";
    private static final long MAX_CHUNK_SIZE = 1L << 30;
    private static final System.Logger LOG = System.getLogger(MemoryEngine.class.getName());

    private static final List<Setting> SPECS = List.of(
            new Setting(CAPACITY, "256m", "bytes of off-heap memory for object bodies"),
            new Setting(CHUNK_SIZE, "64k",
                    "size of the pooled off-heap buffers bodies are stored in; every object uses whole chunks"),
            new Setting(POLICY, "lru", "eviction policy, one of the registered policies"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "bounded off-heap memory in pooled chunks, evicting by policy; not persistent";
    }

    @Override
    public List<Setting> settings() {
        return SPECS;
    }

    @Override
    public ObjectStore open(PluginSettings settings) {
        settings.requireOnly("engine", NAME, SPECS);
        long capacity = settings.bytes(CAPACITY, ByteSize.parse("256m"));
        long chunkSize = settings.bytes(CHUNK_SIZE, ByteSize.parse("64k"));
        if (chunkSize <= 0 || chunkSize > MAX_CHUNK_SIZE) {
            throw new IllegalArgumentException("engine setting '" + CHUNK_SIZE + "' must be between 1 byte and "
                    + ByteSize.format(MAX_CHUNK_SIZE) + ", got " + settings.string(CHUNK_SIZE, ""));
        }
        if (capacity < chunkSize) {
            throw new IllegalArgumentException("engine setting '" + CAPACITY + "' (" + ByteSize.format(capacity)
                    + ") must be at least one chunk (" + ByteSize.format(chunkSize) + ")");
        }
        String policy = settings.string(POLICY, "lru");
        long limit = directMemoryLimit();
        if (capacity > limit) {
            LOG.log(System.Logger.Level.WARNING, "memory capacity " + ByteSize.format(capacity) + " exceeds this JVM's"
                    + " direct memory limit of " + ByteSize.format(limit) + " (-XX:MaxDirectMemorySize, by default the"
                    + " heap's -Xmx): past it the store refuses new objects (counted as store refusals) instead of"
                    + " holding them; raise the limit (EDGELAB_JAVA_OPTS=\"-XX:MaxDirectMemorySize=...\") or lower the"
                    + " capacity");
        }
        return new MemoryStore(capacity, (int) chunkSize, policy, EvictionPolicies.create(policy, capacity), limit);
    }

    /**
     * The most direct memory this JVM lets {@code ByteBuffer.allocateDirect} hold: {@code -XX:MaxDirectMemorySize}
     * where it is set, else the JVM's default, the heap's maximum.
     */
    static long directMemoryLimit() {
        try {
            com.sun.management.HotSpotDiagnosticMXBean hotspot = java.lang.management.ManagementFactory
                    .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            long set = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
            if (set > 0) {
                return set;
            }
        } catch (RuntimeException | LinkageError notHotSpot) {
            // another JVM: its default, the heap's maximum, is the best guess
        }
        return Runtime.getRuntime().maxMemory();
    }
}
