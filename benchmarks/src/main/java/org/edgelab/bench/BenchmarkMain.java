package org.edgelab.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Entry point of {@code benchmarks.jar}: {@code restart ...} runs {@link RestartToFirstHit},
 * {@code page-in ...} runs {@link PageInCost}; anything else is JMH's command line, run with the fork JVM flags of {@link ForkFlags} appended
 * to every forked JVM.
 */
public final class BenchmarkMain {

    private static final Set<String> JMH_INFO_FLAGS = Set.of("-h", "-l", "-lp", "-lprof", "-lrf", "-v");

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("restart")) {
            RestartToFirstHit.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("page-in")) {
            PageInCost.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (Arrays.stream(args).anyMatch(JMH_INFO_FLAGS::contains)) {
            org.openjdk.jmh.Main.main(args);
            return;
        }
        CommandLineOptions cmd = new CommandLineOptions(args);
        List<String> append = new ArrayList<>(ForkFlags.jvmArgs());
        if (cmd.getJvmArgsAppend().hasValue()) {
            append.addAll(cmd.getJvmArgsAppend().get());
        }
        ChainedOptionsBuilder options = new OptionsBuilder().parent(cmd).jvmArgsAppend(append.toArray(String[]::new));
        new Runner(options.build()).run();
    }
}
