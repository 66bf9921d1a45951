package org.edgelab.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.edgelab.units.ByteSize;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Measures restart-to-first-hit: fills a store with {@code --objects} objects in one JVM, closes
 * it cleanly, then starts a fresh JVM (per {@code --runs}) that opens the store and times the open,
 * the first hit (lookup plus first byte) and a sample of further hits. Every JVM runs with the
 * {@link ForkFlags}. The page cache stays warm between the runs (a warm restart).
 */
@Command(name = "restart", mixinStandardHelpOptions = true,
        description = "Time from opening a filled store to its first hit, in fresh JVMs.")
public final class RestartToFirstHit implements Callable<Integer> {

    @Option(names = "--engine", required = true, description = "MEMORY, RAW_LOG, RAW_FILES or LMDB")
    BenchEngine engine;

    @Option(names = "--objects", defaultValue = "100000", description = "objects to fill the store with (default ${DEFAULT-VALUE})")
    int objects;

    @Option(names = "--size", defaultValue = "16KiB", description = "size of each object (default ${DEFAULT-VALUE})")
    String size;

    @Option(names = "--capacity", description = "store capacity (default: 1.5 x objects x size + 64 MiB)")
    String capacity;

    @Option(names = "--settings", defaultValue = "", description = "extra engine settings, name=value;name=value")
    String settings;

    @Option(names = "--dir", description = "parent directory of the store (default: the system temporary directory)")
    Path dir;

    @Option(names = "--runs", defaultValue = "3", description = "restarts to time (default ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--keep", description = "keep the store directory afterwards")
    boolean keep;

    public static void main(String[] args) {
        System.exit(new CommandLine(new RestartToFirstHit()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (engine == BenchEngine.MEMORY) {
            throw new CommandLine.ParameterException(new CommandLine(this), "the memory engine does not survive a restart");
        }
        long objectSize = ByteSize.parse(size);
        long cap = capacity != null ? ByteSize.parse(capacity) : (long) (1.5 * objects * objectSize) + (64L << 20);
        Path parent = dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(parent);
        Path storeDir = Files.createTempDirectory(parent, "edgelab-restart-" + engine.engineName() + "-").resolve("store");
        try {
            List<String> common = List.of(engine.name(), storeDir.toString(), Long.toString(cap), Integer.toString(objects),
                    Long.toString(objectSize), settings);
            child("fill", common);
            for (int run = 1; run <= runs; run++) {
                System.out.println("restart " + run + " of " + runs + ":");
                child("open", common);
            }
        } finally {
            if (!keep) {
                try (Stream<Path> files = Files.walk(storeDir.getParent())) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
        return 0;
    }

    private static void child(String phase, List<String> args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ForkFlags.jvmArgs());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(RestartProbe.class.getName());
        command.add(phase);
        command.addAll(args);
        int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("the " + phase + " JVM exited with " + exit);
        }
    }
}
