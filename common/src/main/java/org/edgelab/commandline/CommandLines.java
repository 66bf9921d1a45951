package org.edgelab.commandline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;

/**
 * How every EdgeLab command line is set up, whether it runs under {@code edgelab} or on its own
 * ({@code java -cp ... org.edgelab.origin.cli.OriginCommand}, for example): a {@code --config FILE} among the
 * arguments supplies defaults for the options not given, enum values are case-insensitive, and a
 * failure prints {@code edgelab <command>: <message>} and exits 2 for bad input, 1 otherwise.
 * Stateless and thread-safe.
 */
public final class CommandLines {

    private CommandLines() {
    }

    /**
     * Configures {@code cli} for {@code args}.
     *
     * @throws IllegalArgumentException if {@code --config} names a file that cannot be read
     */
    public static CommandLine configure(CommandLine cli, String... args) {
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

    /**
     * Runs {@code command} as a program's whole command line and returns its exit status (a
     * {@code main} passes it to {@code System.exit}).
     */
    public static int execute(Object command, String... args) {
        return execute(new CommandLine(command), args);
    }

    /** Like {@link #execute(Object, String...)} for a command line already built (say, with a factory of its own). */
    public static int execute(CommandLine cli, String... args) {
        try {
            configure(cli, args);
        } catch (IllegalArgumentException e) {
            System.err.println("edgelab: " + e.getMessage());
            return 2;
        }
        return cli.execute(args);
    }

    private static Optional<Path> configFile(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String value = null;
            if (args[i].equals("--config") && i + 1 < args.length) {
                value = args[i + 1];
            } else if (args[i].startsWith("--config=")) {
                value = args[i].substring("--config=".length());
            }
            if (value != null) {
                Path file = Path.of(value);
                if (!Files.isReadable(file)) {
                    throw new IllegalArgumentException("config file " + file.toAbsolutePath() + " does not exist or cannot be read");
                }
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }

    private static String describe(Throwable ex) {
        String message = ex.getMessage();
        return message == null ? ex.getClass().getSimpleName() : message;
    }
}
