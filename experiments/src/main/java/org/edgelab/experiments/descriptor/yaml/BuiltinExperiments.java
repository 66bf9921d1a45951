package org.edgelab.experiments.descriptor.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The experiments shipped as class path resources ({@code experiments/<name>.yaml}), listed in
 * {@code experiments/index.txt} so they can be found inside a jar. Stateless and thread-safe.
 */
public final class BuiltinExperiments {

    private static final String INDEX = DescriptorSource.RESOURCE_ROOT + "index.txt";

    private BuiltinExperiments() {
    }

    /** Returns the names of the built-in experiments, in index order. */
    public static List<String> names() {
        try (InputStream in = BuiltinExperiments.class.getClassLoader().getResourceAsStream(INDEX)) {
            if (in == null) {
                return List.of();
            }
            List<String> names = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String name = line.strip();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    names.add(name);
                }
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + INDEX, e);
        }
    }

    /** Returns each built-in experiment's name and description (its own or an included one's). */
    public static Map<String, String> descriptions() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : names()) {
            DescriptorSource source = DescriptorSource.builtin(name)
                    .orElseThrow(() -> new IllegalStateException(INDEX + " lists '" + name + "' but it has no resource"));
            JsonNode description = DescriptorLoader.readTree(source).get("description");
            out.put(name, description == null ? "" : description.asText());
        }
        return out;
    }
}
