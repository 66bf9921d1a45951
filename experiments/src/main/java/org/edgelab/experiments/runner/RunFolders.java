package org.edgelab.experiments.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.target.Targets;

/**
 * Run folders shared by every experiment kind: {@code <root>/<experiment>/<yyyyMMdd-HHmmss>/} for a new run,
 * or an earlier run's folder (checked to be of the same experiment) to resume, and tidying up after
 * cells. Stateless and thread-safe.
 */
public final class RunFolders {

    private static final System.Logger LOG = System.getLogger(RunFolders.class.getName());
    private static final DateTimeFormatter FOLDER_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private RunFolders() {
    }

    /** The folder a run of {@code descriptor} writes to: a new timestamped one, or the one being resumed (checked). */
    public static Path open(Descriptor descriptor, RunOptions options) throws IOException {
        return options.resume() != null ? prepareResume(descriptor, options.resume())
                : newRunFolder(options.outputRoot().resolve(descriptor.name()));
    }

    private static Path newRunFolder(Path parent) throws IOException {
        Files.createDirectories(parent);
        String stamp = FOLDER_TIME.format(Instant.now());
        for (int i = 1; ; i++) {
            Path candidate = parent.resolve(i == 1 ? stamp : stamp + "-" + i);
            try {
                return Files.createDirectory(candidate);
            } catch (FileAlreadyExistsException e) {
                // another run started in the same second: take the next name
            }
        }
    }

    private static Path prepareResume(Descriptor descriptor, Path folder) throws IOException {
        Path manifestFile = folder.resolve("manifest.json");
        if (!Files.isRegularFile(manifestFile)) {
            throw new IllegalArgumentException("cannot resume " + folder + ": it has no manifest.json (is it a run folder?)");
        }
        String experiment = Manifest.experimentOf(manifestFile);
        if (!descriptor.name().equals(experiment)) {
            throw new IllegalArgumentException("cannot resume " + folder + " with experiment '" + descriptor.name()
                    + "': that folder holds a run of '" + experiment + "'");
        }
        return folder;
    }

    /**
     * The steps every experiment kind takes before its first cell: copies the descriptor into {@code directory} once,
     * fails with {@code IllegalStateException} naming what is missing when a server's target cannot run here, and
     * returns the cells whose rows {@code results.csv} already holds (those of a resumed run, which the caller skips).
     * Blocks on file I/O.
     */
    public static Set<String> begin(Path directory, Descriptor descriptor) throws IOException {
        Path descriptorCopy = directory.resolve("descriptor.yaml");
        if (!Files.exists(descriptorCopy)) {
            Files.writeString(descriptorCopy, descriptor.sourceText(), StandardCharsets.UTF_8);
        }
        Set<String> finished = new HashSet<>();
        for (ResultRow row : ResultsCsv.read(directory.resolve("results.csv"))) {
            finished.add(row.get("cell"));
        }
        Targets.requireAvailable(descriptor.servers());
        return finished;
    }

    /** Deletes {@code dir} and everything in it, logging (not throwing) what cannot be deleted. */
    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete store directory " + dir + ": " + e.getMessage());
        }
    }

    /** Deletes {@code dir} if it exists and is empty. */
    public static void deleteIfEmpty(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (IOException e) {
            // absent or not empty: leave it
        }
    }
}
