package org.edgelab.cli;

import org.edgelab.analysis.cli.ReportCommand;
import org.edgelab.experiments.cli.ListCommand;
import org.edgelab.experiments.cli.RunCommand;
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
        subcommands = {RunCommand.class, ListCommand.class, ReportCommand.class, ServeCommand.class, OriginCommand.class, LoadCommand.class,
                EnginesCommand.class,
                CommandLine.HelpCommand.class})
public final class EdgeLab implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        CommandLine cli;
        try {
            cli = newCommandLine(args);
        } catch (IllegalArgumentException e) {
            System.err.println("edgelab: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(cli.execute(args));
    }

    /**
     * Returns the command line configured for {@code args} (tests call {@code execute} on it without
     * exiting). A {@code --config FILE} among the arguments supplies defaults for the options not given.
     */
    public static CommandLine newCommandLine(String... args) {
        CommandLine cli = new CommandLine(new EdgeLab());
        configFile(args).ifPresent(file -> cli.setDefaultValueProvider(new CommandLine.PropertiesDefaultProvider(file.toFile())));
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("edgelab " + commandLine.getCommandName() + ": " + describe(ex));
            if (Boolean.getBoolean("edgelab.debug")) {
                ex.printStackTrace(commandLine.getErr());
            }
            return ex instanceof IllegalArgumentException ? 2 : 1;
        });
        return cli;
    }

    private static java.util.Optional<java.nio.file.Path> configFile(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String value = null;
            if (args[i].equals("--config") && i + 1 < args.length) {
                value = args[i + 1];
            } else if (args[i].startsWith("--config=")) {
                value = args[i].substring("--config=".length());
            }
            if (value != null) {
                java.nio.file.Path file = java.nio.file.Path.of(value);
                if (!java.nio.file.Files.isReadable(file)) {
                    throw new IllegalArgumentException("config file " + file.toAbsolutePath() + " does not exist or cannot be read");
                }
                return java.util.Optional.of(file);
            }
        }
        return java.util.Optional.empty();
    }

    private static String describe(Throwable ex) {
        String message = ex.getMessage();
        return message == null ? ex.getClass().getSimpleName() : message;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }
}
