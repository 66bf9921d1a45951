package org.edgelab.experiments.target;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import org.edgelab.experiments.process.Executables;

/**
 * Command lines that run one of EdgeLab's main classes in a JVM of its own: this JVM's {@code java}
 * and class path, the {@code --add-opens}/{@code --add-exports} flags this JVM was started with (lmdbjava
 * needs them), this JVM's logging settings (so the runner's {@code --log-level} reaches its servers), a
 * heap limit, and optionally pinned to CPUs with {@code taskset -c}. Stateless and thread-safe.
 */
public final class JvmCommand {

    /** The system properties of the one logging binding, slf4j-simple, which {@code --log-level} sets. */
    static final String LOGGING_PROPERTIES = "org.slf4j.simpleLogger.";

    private JvmCommand() {
    }

    /** The {@code java} executable of this JVM. */
    static String javaExecutable() {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        if (Files.isExecutable(java)) {
            return java.toString();
        }
        return ProcessHandle.current().info().command().orElse("java");
    }

    /**
     * The command running {@code mainClass} with {@code args}, limited to {@code heapBytes} of heap (0: the
     * JVM's default) and pinned to {@code cpus} (a {@code taskset -c} list) when present.
     */
    public static List<String> forMain(String mainClass, long heapBytes, Optional<String> cpus, List<String> args) {
        List<String> command = new ArrayList<>();
        cpus.ifPresent(list -> {
            command.add(Executables.find("taskset").map(Path::toString).orElse("taskset"));
            command.add("-c");
            command.add(list);
        });
        command.add(javaExecutable());
        if (heapBytes > 0) {
            command.add("-Xmx" + Math.max(1, heapBytes >> 20) + "m");
        }
        command.addAll(inheritedModuleFlags());
        command.addAll(inheritedLoggingFlags());
        command.add("-cp");
        command.add(absoluteClassPath(System.getProperty("java.class.path")));
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /**
     * {@code classPath} with every entry made absolute: children run in the cell's work folder, where
     * a relative entry (e.g. from {@code java -jar cli/target/edgelab-cli.jar}) would point nowhere.
     */
    static String absoluteClassPath(String classPath) {
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                entries.add(Path.of(entry).toAbsolutePath().normalize().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * A {@code -Dname=value} flag for each slf4j-simple setting among {@code properties} (this JVM's: what
     * {@code --log-level} set, or {@code -D} flags it was started with), sorted by name, so a child JVM
     * logs as this one does; none without such settings (the child then reads the same
     * {@code simplelogger.properties}).
     */
    static List<String> loggingFlags(Properties properties) {
        List<String> flags = new ArrayList<>();
        for (String name : new TreeSet<>(properties.stringPropertyNames())) {
            if (name.startsWith(LOGGING_PROPERTIES)) {
                flags.add("-D" + name + "=" + properties.getProperty(name));
            }
        }
        return flags;
    }

    /** This JVM's slf4j-simple settings as flags ({@link #loggingFlags}), for servers started in other JVMs or containers. */
    public static List<String> inheritedLoggingFlags() {
        return loggingFlags(System.getProperties());
    }

    /**
     * The {@code --add-opens}/{@code --add-exports} flags this JVM was started with (the root pom's
     * {@code edgelab.lmdb.opens}, via surefire or the launcher), for servers started in other JVMs.
     */
    public static List<String> inheritedModuleFlags() {
        return moduleFlags(ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /** The {@code --add-opens} and {@code --add-exports} flags among a JVM's input arguments, in either form. */
    static List<String> moduleFlags(List<String> inputArguments) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < inputArguments.size(); i++) {
            String arg = inputArguments.get(i);
            if (arg.startsWith("--add-opens=") || arg.startsWith("--add-exports=")) {
                out.add(arg);
            } else if ((arg.equals("--add-opens") || arg.equals("--add-exports")) && i + 1 < inputArguments.size()) {
                out.add(arg + "=" + inputArguments.get(++i));
            }
        }
        return out;
    }
}
