package org.edgelab.architecture;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * EdgeLab's Maven modules as the architecture rules see them: the packages of each module's main code
 * and the modules that code may use, the dependency table of the README ("Layout"). When a module or
 * a dependency is added, both change together. Immutable.
 */
enum Module {
    COMMON("common", List.of("org.edgelab.units..", "org.edgelab.plugin..", "org.edgelab.commandline..",
            "org.edgelab.transport..", "org.edgelab.http..", "org.edgelab.hashing..", "org.edgelab.measure..")),
    STORAGE_API("storage-api", List.of("org.edgelab.storage.api..", "org.edgelab.storage.eviction.."), COMMON),
    STORAGE_MEMORY("storage-memory", List.of("org.edgelab.storage.memory.."), COMMON, STORAGE_API),
    STORAGE_RAW("storage-raw", List.of("org.edgelab.storage.raw..", "org.edgelab.storage.tier.."), COMMON, STORAGE_API),
    STORAGE_LMDB("storage-lmdb", List.of("org.edgelab.storage.lmdb.."), COMMON, STORAGE_API),
    LINKS("links", List.of("org.edgelab.link.."), COMMON),
    ORIGIN("origin", List.of("org.edgelab.origin.."), COMMON),
    CACHE_SERVER("cache-server", List.of("org.edgelab.cache.."), COMMON, STORAGE_API),
    LOADGEN("loadgen", List.of("org.edgelab.loadgen.."), COMMON, ORIGIN),
    ANALYSIS("analysis", List.of("org.edgelab.analysis.."), COMMON),
    EXPERIMENTS("experiments", List.of("org.edgelab.experiments.."), COMMON, STORAGE_API, ORIGIN, CACHE_SERVER, LOADGEN, LINKS),
    CONTAINER("container", List.of("org.edgelab.container.."), COMMON, EXPERIMENTS),
    KUBERNETES("kubernetes", List.of("org.edgelab.kubernetes.."), COMMON, LOADGEN, EXPERIMENTS, CONTAINER),
    PEERS("peers", List.of("org.edgelab.peers.."), COMMON, STORAGE_API, ORIGIN, EXPERIMENTS),
    BENCHMARKS("benchmarks", List.of("org.edgelab.bench.."), COMMON, STORAGE_API, STORAGE_MEMORY, STORAGE_RAW, STORAGE_LMDB),
    CLI("cli", List.of("org.edgelab.cli.."), COMMON, STORAGE_API, STORAGE_MEMORY, STORAGE_RAW, STORAGE_LMDB, ORIGIN,
            CACHE_SERVER, LOADGEN, LINKS, ANALYSIS, EXPERIMENTS, PEERS);

    /** The engines: plugins that other code reaches only by name, through the engine registry. */
    static final Set<Module> ENGINES = EnumSet.of(STORAGE_MEMORY, STORAGE_RAW, STORAGE_LMDB);

    private final String artifact;
    private final List<String> packages;
    private final Module[] uses;

    Module(String artifact, List<String> packages, Module... uses) {
        this.artifact = artifact;
        this.packages = packages;
        this.uses = uses;
    }

    /** The Maven artifact, e.g. {@code cache-server}. */
    String artifact() {
        return artifact;
    }

    /** ArchUnit package patterns of its main code, e.g. {@code org.edgelab.cache..}. */
    String[] packages() {
        return packages.toArray(String[]::new);
    }

    /** The modules its main code may use (besides itself and third-party libraries). */
    Module[] uses() {
        return uses.clone();
    }
}
