package org.edgelab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * Applies {@code --log-level} to the one logging sink (slf4j-simple, configured by {@code simplelogger.properties}):
 * the level must be set before the first logger exists, so it is read from the raw arguments before picocli runs.
 * Every logger that the properties file sets on its own follows the level too, so one flag governs EdgeLab, Netty,
 * Testcontainers and Tablesaw. A system property given on the JVM's command line wins.
 *
 * <p>Thread-safety: call {@link #configure} once, from {@code main}, before anything logs.
 */
final class Logging {
    /** The option's name, on the root command and inherited by every subcommand. */
    static final String OPTION = "--log-level";
    /** The levels slf4j-simple knows, as written after {@link #OPTION}. */
    static final List<String> LEVELS = List.of("error", "warn", "info", "debug", "trace", "off");

    private static final String PREFIX = "org.slf4j.simpleLogger.";
    private static final String PER_LOGGER = PREFIX + "log.";

    private Logging() {
    }

    /**
     * Sets slf4j-simple's levels from the {@code --log-level} among {@code args} (the last one wins); does nothing
     * without one. An unknown level is left for picocli to reject with the list of levels.
     */
    static void configure(String[] args) {
        level(args).filter(LEVELS::contains).ifPresent(Logging::apply);
    }

    /** The level named by the last {@code --log-level LEVEL} or {@code --log-level=LEVEL} among {@code args}. */
    static Optional<String> level(String[] args) {
        String level = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--")) {
                break;
            }
            if (args[i].equals(OPTION) && i + 1 < args.length) {
                level = args[++i];
            } else if (args[i].startsWith(OPTION + "=")) {
                level = args[i].substring(OPTION.length() + 1);
            }
        }
        return Optional.ofNullable(level).map(l -> l.toLowerCase(Locale.ROOT));
    }

    private static void apply(String level) {
        setUnlessGiven(PREFIX + "defaultLogLevel", level);
        for (String name : fileDefaults().stringPropertyNames()) {
            if (name.startsWith(PER_LOGGER)) {
                setUnlessGiven(name, level);
            }
        }
    }

    private static void setUnlessGiven(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    private static Properties fileDefaults() {
        Properties properties = new Properties();
        try (InputStream in = Logging.class.getClassLoader().getResourceAsStream("simplelogger.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read simplelogger.properties", e);
        }
        return properties;
    }
}
