package org.edgelab.cli;

import org.edgelab.analysis.cli.ReportCommand;
import org.edgelab.cache.cli.ServeCommand;
import org.edgelab.experiments.cli.ListCommand;
import org.edgelab.experiments.cli.RunCommand;
import org.edgelab.commandline.CommandLines;
import org.edgelab.origin.cli.OriginCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code edgelab} command: one entry point whose subcommands run each part of EdgeLab.
 * Stateless; each invocation runs one subcommand.
 */
@Command(name = "edgelab",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "A testbed for comparing CDN edge-cache storage designs.",
        subcommands = {RunCommand.class, ListCommand.class, ReportCommand.class, ServeCommand.class, OriginCommand.class, LoadCommand.class, MergeCommand.class,
                EnginesCommand.class,
                CommandLine.HelpCommand.class})
public final class EdgeLab implements Runnable {

    /** Makes the subcommands: {@code serve} with the embedded synthetic origin, every other one as picocli does. */
    private static final CommandLine.IFactory COMMANDS = new CommandLine.IFactory() {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            return type == ServeCommand.class ? type.cast(new ServeCommand(new SyntheticOrigin())) : CommandLine.defaultFactory().create(type);
        }
    };

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Read from the raw arguments by {@link Logging#configure} before anything logs; declared here for help and checking. */
    @CommandLine.Option(names = Logging.OPTION, paramLabel = "LEVEL", scope = CommandLine.ScopeType.INHERIT,
            completionCandidates = LogLevels.class,
            description = "Level of every log (EdgeLab, Netty, Testcontainers, Tablesaw), to standard error:"
                    + " ${COMPLETION-CANDIDATES} (default: info for EdgeLab, warn for the libraries).")
    void logLevel(String level) {
        if (!Logging.LEVELS.contains(level.toLowerCase(java.util.Locale.ROOT))) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "unknown log level '" + level + "'; levels are " + String.join(", ", Logging.LEVELS));
        }
    }

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        Logging.configure(args);
        System.exit(CommandLines.execute(new CommandLine(new EdgeLab(), COMMANDS), args));
    }

    /** The levels {@code --log-level} accepts. */
    static final class LogLevels implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Logging.LEVELS.iterator();
        }
    }

    /**
     * Returns the command line configured for {@code args} (tests call {@code execute} on it without
     * exiting). A {@code --config FILE} among the arguments supplies defaults for the options not given.
     */
    public static CommandLine newCommandLine(String... args) {
        return CommandLines.configure(new CommandLine(new EdgeLab(), COMMANDS), args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }
}
