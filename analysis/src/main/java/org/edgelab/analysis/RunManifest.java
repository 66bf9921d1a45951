package org.edgelab.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The facts of a run's {@code manifest.json} the analysis uses: experiment, seed, git commit, cores and status.
 *
 * <p>Thread-safety: immutable.
 *
 * @param experiment the experiment's name
 * @param seed       the run's seed, empty when not recorded
 * @param gitCommit  the commit the run was built from, empty when not recorded
 * @param cores      processors available to the run, empty when not recorded
 * @param status     {@code complete} or {@code partial}, empty when not recorded
 */
public record RunManifest(String experiment, Optional<String> seed, Optional<String> gitCommit, OptionalInt cores,
                          Optional<String> status) {
    /** The file name of a run folder's manifest. */
    public static final String FILE = "manifest.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Reads {@code <runDir>/manifest.json}; empty when the folder has none.
     *
     * @throws ResultFormatException when the file is not JSON or names no experiment
     */
    public static Optional<RunManifest> read(Path runDir) {
        Path file = runDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        JsonNode node;
        try {
            node = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new ResultFormatException(file + " is not valid JSON: " + e.getMessage(), e);
        }
        JsonNode experiment = node.get("experiment");
        if (experiment == null || !experiment.isTextual()) {
            throw new ResultFormatException(file + " has no 'experiment' name");
        }
        JsonNode cores = node.get("cores");
        return Optional.of(new RunManifest(experiment.asText(), text(node, "seed"), text(node, "git_commit"),
                cores != null && cores.canConvertToInt() ? OptionalInt.of(cores.asInt()) : OptionalInt.empty(),
                text(node, "status")));
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value.asText());
    }
}
