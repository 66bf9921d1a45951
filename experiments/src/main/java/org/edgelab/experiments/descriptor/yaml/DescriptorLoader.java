package org.edgelab.experiments.descriptor.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.edgelab.experiments.client.ClientChoice;
import org.edgelab.experiments.client.ClientLoad;
import org.edgelab.experiments.client.LoadClient;
import org.edgelab.experiments.client.LoadClients;
import org.edgelab.experiments.descriptor.ByteSizeValue;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.link.NetworkLinks;
import org.edgelab.link.UserSpaceLink;
import org.edgelab.experiments.descriptor.Descriptor.Hardware;
import org.edgelab.experiments.descriptor.Descriptor.Link;
import org.edgelab.experiments.descriptor.Descriptor.LoadProfile;
import org.edgelab.experiments.descriptor.Descriptor.Power;
import org.edgelab.experiments.descriptor.Settle;
import org.edgelab.experiments.power.PowerModel;
import org.edgelab.experiments.power.PowerModels;
import org.edgelab.experiments.runner.ExperimentKinds;
import org.edgelab.experiments.runner.ExperimentPlugin;
import org.edgelab.experiments.target.BuildValidationException;
import org.edgelab.experiments.target.EdgeLabBuilds;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.experiments.target.Target;
import org.edgelab.experiments.target.Targets;
import org.edgelab.experiments.target.Topology;
import org.edgelab.experiments.workload.WorkloadPlugin;
import org.edgelab.experiments.workload.WorkloadPlugins;
import org.edgelab.loadgen.RateSchedule;
import org.edgelab.loadgen.workload.Popularity;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.SettingException;
import org.edgelab.plugin.UnknownPluginException;
import org.edgelab.storage.api.StorageEngines;
import org.edgelab.units.Durations;

/**
 * Reads descriptors: parses each file's YAML, binds it strictly (unknown fields and bad units fail),
 * merges its {@code includes} under it (mappings merge key by key; lists and scalars replace), lays
 * the {@code quick} blocks over the result for {@code --quick}, applies defaults and checks the whole,
 * including every plugin it names (experiment kind, targets, engines, workload, load clients, power model) and that
 * plugin's settings.
 * Every error is a {@link DescriptorException} naming the file, line, column and field the value
 * came from. Stateless and thread-safe.
 */
public final class DescriptorLoader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION))
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            // a whole-number field (load.requests, max_objects, seed...) given 1.5 fails as not a whole number
            // instead of being truncated to 1
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);

    private static final String QUICK = "quick";
    /** A settle's JIT bound as written: JIT compile time per second, {@code 50ms/s}. */
    private static final Pattern JIT_BOUND = Pattern.compile("(\\d{1,6}(?:\\.\\d+)?)\\s*ms/s");
    private static final String INCLUDES = "includes";

    private DescriptorLoader() {
    }

    /**
     * Loads {@code nameOrFile}: an existing file path, else a built-in experiment name. Fails listing the
     * built-ins when it is neither.
     */
    public static Descriptor load(String nameOrFile, boolean quick) {
        return load(nameOrFile, quick, null);
    }

    /**
     * Loads {@code nameOrFile} like {@link #load(String, boolean)}, with {@code defaultTarget} (a target
     * plugin name, or null) in place of the descriptor's own default target for builds that name none.
     */
    public static Descriptor load(String nameOrFile, boolean quick, String defaultTarget) {
        Path file = Path.of(nameOrFile);
        if (Files.isRegularFile(file)) {
            return load(DescriptorSource.file(file), quick, defaultTarget);
        }
        Optional<DescriptorSource> builtin = DescriptorSource.builtin(nameOrFile);
        if (builtin.isPresent() && BuiltinExperiments.names().contains(nameOrFile)) {
            return load(builtin.get(), quick, defaultTarget);
        }
        throw new IllegalArgumentException("'" + nameOrFile + "' is neither a descriptor file nor a built-in experiment;"
                + " built-in experiments: " + String.join(", ", BuiltinExperiments.names()));
    }

    /** Loads a descriptor from its source, with its includes, applying the quick overlay if asked. */
    public static Descriptor load(DescriptorSource source, boolean quick) {
        return load(source, quick, null);
    }

    /** Loads a descriptor from its source, with {@code defaultTarget} (or null) overriding its default target. */
    public static Descriptor load(DescriptorSource source, boolean quick, String defaultTarget) {
        if (defaultTarget != null) {
            Targets.get(defaultTarget); // an unknown name fails here, listing the known targets
        }
        Layers layers = layers(source, new ArrayDeque<>());
        ObjectNode merged = quick ? merge(layers.base, layers.quick) : layers.base;
        List<Origin> origins = new ArrayList<>();
        if (quick) {
            origins.addAll(layers.quickOrigins);
        }
        origins.addAll(layers.baseOrigins);
        Locator locator = new Locator(source, origins);
        DescriptorSpec spec;
        try {
            spec = YAML.treeToValue(merged, DescriptorSpec.class);
        } catch (JsonProcessingException e) {
            throw translate(locator, source.name(), e);
        }
        return new Resolver(locator, defaultTarget).resolve(spec, source, quick);
    }

    /** Parses a source's YAML into a tree (a mapping at the top), failing with the file and line. */
    static ObjectNode readTree(DescriptorSource source) {
        JsonNode node;
        try {
            node = YAML.readTree(source.text());
        } catch (JsonProcessingException e) {
            throw translate(source, e);
        }
        if (node == null || node.isMissingNode() || node.isNull()) {
            throw new DescriptorException(source.name(), 0, 0, "", "the descriptor is empty");
        }
        if (!node.isObject()) {
            throw new DescriptorException(source.name(), 1, 1, "", "the descriptor must be a mapping of fields (name:, servers:, ...)");
        }
        return (ObjectNode) node;
    }

    // ---- one file and its includes ----

    private record Origin(DescriptorSource source, String prefix) {
    }

    private record Layers(ObjectNode base, ObjectNode quick, List<Origin> baseOrigins, List<Origin> quickOrigins) {
    }

    private static Layers layers(DescriptorSource source, Deque<String> including) {
        if (including.contains(source.name())) {
            throw new DescriptorException(source.name(), 0, 0, INCLUDES, "includes form a cycle: "
                    + String.join(" -> ", including) + " -> " + source.name());
        }
        ObjectNode tree = readTree(source);
        try {
            YAML.readValue(source.text(), DescriptorSpec.class);
        } catch (JsonProcessingException e) {
            throw translate(source, e);
        }
        Locator own = new Locator(source, List.of(new Origin(source, "")));
        JsonNode quickNode = tree.get(QUICK);
        if (quickNode != null && quickNode.isObject()) {
            for (String nested : List.of(INCLUDES, QUICK)) {
                if (quickNode.has(nested)) {
                    throw own.error("/quick/" + nested, "a quick block cannot have its own " + nested);
                }
            }
        }
        ObjectNode base = YAML.createObjectNode();
        ObjectNode quick = YAML.createObjectNode();
        List<Origin> baseOrigins = new ArrayList<>();
        List<Origin> quickOrigins = new ArrayList<>();
        baseOrigins.add(new Origin(source, ""));
        quickOrigins.add(new Origin(source, "/quick"));
        JsonNode includes = tree.get(INCLUDES);
        if (includes != null && !includes.isNull()) {
            including.push(source.name());
            List<Origin> includedBase = new ArrayList<>();
            List<Origin> includedQuick = new ArrayList<>();
            int i = 0;
            for (JsonNode include : includes.isArray() ? includes : List.of(includes)) {
                String pointer = includes.isArray() ? "/includes/" + i : "/includes";
                DescriptorSource included = resolveInclude(source, include.asText(), own, pointer);
                Layers inner = layers(included, including);
                base = merge(base, inner.base);
                quick = merge(quick, inner.quick);
                includedBase.addAll(0, inner.baseOrigins);
                includedQuick.addAll(0, inner.quickOrigins);
                i++;
            }
            including.pop();
            baseOrigins.addAll(includedBase);
            quickOrigins.addAll(includedQuick);
        }
        ObjectNode ownFields = tree.deepCopy();
        ownFields.remove(INCLUDES);
        ownFields.remove(QUICK);
        base = merge(base, ownFields);
        if (quickNode != null && quickNode.isObject()) {
            quick = merge(quick, (ObjectNode) quickNode);
        }
        return new Layers(base, quick, baseOrigins, quickOrigins);
    }

    private static DescriptorSource resolveInclude(DescriptorSource from, String include, Locator own, String pointer) {
        if (from.directory() != null) {
            for (String candidate : new String[] {include, include + ".yaml"}) {
                Path file = from.directory().resolve(candidate);
                if (Files.isRegularFile(file)) {
                    return DescriptorSource.file(file);
                }
            }
        }
        return DescriptorSource.builtin(include).orElseThrow(() -> own.error(pointer, "cannot find include '" + include
                + "': no such file" + (from.directory() == null ? "" : " in " + from.directory())
                + " and no built-in descriptor of that name; built-in experiments: "
                + String.join(", ", BuiltinExperiments.names())));
    }

    /** Returns a new tree: {@code base} with {@code over} laid on it (mappings merge, everything else replaces). */
    static ObjectNode merge(ObjectNode base, ObjectNode over) {
        ObjectNode out = base.deepCopy();
        for (Map.Entry<String, JsonNode> e : over.properties()) {
            JsonNode existing = out.get(e.getKey());
            if (existing != null && existing.isObject() && e.getValue().isObject()) {
                out.set(e.getKey(), merge((ObjectNode) existing, (ObjectNode) e.getValue()));
            } else {
                out.set(e.getKey(), e.getValue().deepCopy());
            }
        }
        return out;
    }

    // ---- error translation and location ----

    /** Turns a Jackson error about one file into a DescriptorException with file, line, column and field. */
    static DescriptorException translate(DescriptorSource source, JsonProcessingException e) {
        return translate(new Locator(source, List.of(new Origin(source, ""))), source.name(), e);
    }

    /**
     * Turns a Jackson error into a DescriptorException; the line is that of the field the error's path
     * names (found with {@code locator}), else the parser's position.
     */
    private static DescriptorException translate(Locator locator, String file, JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        int line = location == null ? 0 : location.getLineNr();
        int column = location == null ? 0 : location.getColumnNr();
        if (!(e instanceof JsonMappingException mapping)) {
            return new DescriptorException(file, line, column, "", "not valid YAML: " + e.getOriginalMessage().strip());
        }
        String problem;
        if (e instanceof UnrecognizedPropertyException unknown) {
            Set<String> known = new TreeSet<>();
            for (Object id : unknown.getKnownPropertyIds()) {
                known.add(String.valueOf(id));
            }
            problem = "unknown field '" + unknown.getPropertyName() + "'; known fields here: " + String.join(", ", known);
        } else {
            problem = null;
            for (Throwable c = e.getCause(); c != null && problem == null; c = c.getCause()) {
                if (c instanceof IllegalArgumentException && !(c instanceof JsonProcessingException)) {
                    problem = c.getMessage();
                }
            }
            if (problem == null && e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
                problem = "expected " + expected(mismatch.getTargetType());
            }
            if (problem == null) {
                problem = mapping.getOriginalMessage();
            }
        }
        String pointer = pointer(mapping.getPath());
        if (!pointer.isEmpty()) {
            DescriptorException located = locator.error(pointer, problem);
            if (located.line() > 0 || line == 0) {
                return located;
            }
        }
        return new DescriptorException(file, line, column, field(pointer), problem);
    }

    private static String expected(Class<?> type) {
        if (type == Integer.class || type == Long.class || type == int.class || type == long.class) {
            return "a whole number";
        }
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a single value (text)";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        return "a mapping of fields";
    }

    private static String pointer(List<JsonMappingException.Reference> references) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : references) {
            if (r.getFieldName() != null) {
                b.append('/').append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('/').append(r.getIndex());
            }
        }
        return b.toString();
    }

    /** Converts a JSON pointer ({@code /servers/1/engine}) to a dotted field ({@code servers[1].engine}). */
    static String field(String pointer) {
        StringBuilder b = new StringBuilder();
        for (String part : pointer.split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            if (part.chars().allMatch(Character::isDigit)) {
                b.append('[').append(part).append(']');
            } else {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(part);
            }
        }
        return b.toString();
    }

    /** Finds which file (and line) a merged value came from, by JSON pointer. */
    private static final class Locator {
        private final DescriptorSource main;
        private final List<Origin> origins;

        Locator(DescriptorSource main, List<Origin> origins) {
            this.main = main;
            this.origins = origins;
        }

        DescriptorException error(String pointer, String problem) {
            for (String p = pointer; !p.isEmpty(); p = p.substring(0, p.lastIndexOf('/'))) {
                for (Origin origin : origins) {
                    JsonLocation at = locate(origin.source.text(), origin.prefix + p);
                    if (at != null) {
                        return new DescriptorException(origin.source.name(), at.getLineNr(), at.getColumnNr(), field(pointer), problem);
                    }
                }
            }
            return new DescriptorException(main.name(), 0, 0, field(pointer), problem);
        }

        /** Whether some file of the descriptor writes the field at {@code pointer} itself (not just a parent of it). */
        boolean writes(String pointer) {
            for (Origin origin : origins) {
                if (locate(origin.source.text(), origin.prefix + pointer) != null) {
                    return true;
                }
            }
            return false;
        }

        private static JsonLocation locate(String text, String pointer) {
            try (JsonParser parser = YAML.getFactory().createParser(text)) {
                JsonToken token;
                while ((token = parser.nextToken()) != null) {
                    if (token != JsonToken.END_OBJECT && token != JsonToken.END_ARRAY
                            && parser.getParsingContext().pathAsPointer().toString().equals(pointer)) {
                        return parser.currentTokenLocation();
                    }
                }
            } catch (IOException e) {
                return null;
            }
            return null;
        }
    }

    // ---- defaults and whole-descriptor checks ----

    private static final class Resolver {
        private final Locator at;
        private final String targetOverride;

        Resolver(Locator at, String targetOverride) {
            this.at = at;
            this.targetOverride = targetOverride;
        }

        Descriptor resolve(DescriptorSpec spec, DescriptorSource source, boolean quick) {
            String name = spec.name();
            if (name == null || name.isBlank()) {
                throw at.error("/name", "an experiment needs a name");
            }
            if (!name.matches("[A-Za-z0-9._-]{1,100}")) {
                throw at.error("/name", "'" + name + "' must be 1-100 characters of letters, digits, '.', '_' or '-' (it names the results folder)");
            }
            int repetitions = spec.repetitions() == null ? 1 : spec.repetitions();
            if (repetitions < 1) {
                throw at.error("/repetitions", "must be at least 1, got " + repetitions);
            }
            List<String> notes = new ArrayList<>();
            String target = targetOverride != null ? targetOverride : spec.target() == null ? Targets.DEFAULT : spec.target();
            try {
                Targets.get(target);
            } catch (UnknownPluginException e) {
                throw at.error("/target", e.getMessage());
            }
            Map<String, String> targetSettings = spec.targetSettings() == null ? Map.of() : spec.targetSettings();
            String kind = spec.kind() == null ? ExperimentKinds.DEFAULT : spec.kind();
            ExperimentPlugin experiment;
            try {
                experiment = ExperimentKinds.get(kind);
            } catch (UnknownPluginException e) {
                throw at.error("/kind", e.getMessage());
            }
            Map<String, String> settings = spec.settings() == null ? Map.of() : spec.settings();
            try {
                PluginSettings.of(settings).requireOnly("experiment kind '" + kind + "'", experiment.settings());
            } catch (SettingException e) {
                throw at.error("/settings/" + e.key(), e.getMessage());
            }
            Map<String, ServerBuild> builds = builds(spec.builds());
            List<ServerBuild> servers = servers(spec.servers(), target, targetSettings, builds, notes);
            if (targetOverride == null && spec.target() == null && besidePeers(servers)) {
                // Like with like: the builds that run (peers that are installed) have processes of their own, so EdgeLab's do too.
                target = Targets.BESIDE_PEERS;
                notes.clear();
                servers = servers(spec.servers(), target, targetSettings, builds, notes);
                notes.add("EdgeLab's builds run on the '" + target + "' target, each cache in its own JVM, as the other builds run"
                        + " in processes of their own (set target: " + Targets.DEFAULT + " in the descriptor, or --target, to change it)");
            }
            LoadProfile load = load(spec.load(), source, notes);
            validateLoad(spec.servers(), servers, load);
            validateTopologyLoad(spec, servers, load);
            Hardware hardware = hardware(spec.hardware());
            // the counts the descriptor declares, not those left once what this machine lacks was skipped: whether a
            // descriptor is valid must not depend on which peers and load clients are installed
            int declaredServers = spec.servers() == null ? servers.size() : spec.servers().size();
            int declaredClients = spec.load() == null || spec.load().client() == null || spec.load().client().isEmpty()
                    ? load.clients().size() : spec.load().client().size();
            List<String> matrix = matrix(spec.matrix(), declaredServers, declaredClients, load);
            Descriptor descriptor = new Descriptor(name, experiment.name(), settings, spec.description() == null ? "" : spec.description(),
                    source.name(), source.text(), quick, spec.seed() == null ? 42 : spec.seed(), repetitions, target, servers,
                    notes, load, hardware, matrix);
            try {
                experiment.validate(descriptor);
            } catch (SettingException e) {
                DescriptorException located = at.error(e.key().startsWith("/") ? e.key() : "/settings/" + e.key(), e.getMessage());
                // a field the kind needs but the descriptor leaves out: point at the kind that needs it
                throw located.line() > 0 ? located : at.error("/kind", located.field() + ": " + e.getMessage());
            }
            return descriptor;
        }

        /**
         * The error of the build at {@code pointer}: at its field, or, for a target setting the build inherits from the
         * descriptor's own {@code target_settings}, at that one.
         */
        private DescriptorException buildError(String pointer, BuildValidationException e) {
            if (e.field().startsWith("target_settings") && !at.writes(pointer + "/" + e.field()) && at.writes("/" + e.field())) {
                return at.error("/" + e.field(), e.getMessage());
            }
            return at.error(pointer + "/" + e.field(), e.getMessage());
        }

        /** Lets each build's target check it can send the load (e.g. the kubernetes target's workers against the connections). */
        private void validateLoad(List<DescriptorSpec.Server> specs, List<ServerBuild> servers, LoadProfile load) {
            for (int i = 0; i < specs.size(); i++) {
                DescriptorSpec.Server s = specs.get(i);
                String buildName = s.name() == null ? s.engine() : s.name();
                for (ServerBuild build : servers) {
                    if (build.name().equals(buildName)) {
                        try {
                            Targets.get(build.target()).validateLoad(build, load.connections(), load.workloadKind());
                        } catch (BuildValidationException e) {
                            throw buildError("/servers/" + i, e);
                        }
                    }
                }
            }
        }

        /**
         * A topology's load is sent by its target's own workers (loadgen, from where they run): the descriptor's load
         * client must be loadgen, a settle a fixed length, and the link none (the target's namespaces are its links).
         */
        private void validateTopologyLoad(DescriptorSpec spec, List<ServerBuild> servers, LoadProfile load) {
            Optional<ServerBuild> topology = servers.stream().filter(ServerBuild::hasTopology).findFirst();
            if (topology.isEmpty()) {
                return;
            }
            String who = "server '" + topology.get().name() + "' runs a topology, whose load its target's loadgen workers send";
            // the clients declared, not those left once what this machine lacks was skipped
            List<ClientValue> declared = spec.load() == null || spec.load().client() == null ? List.of() : spec.load().client();
            if (declared.stream().anyMatch(c -> !LoadClients.DEFAULT.equals(c.kind()))) {
                throw at.error("/load/client", who + "; load.client must be " + LoadClients.DEFAULT + " (or left out)");
            }
            if (load.settle().auto()) {
                throw at.error("/load/settle", who + "; give load.settle a fixed length (e.g. 10s), not auto");
            }
            if (load.links().stream().anyMatch(l -> !l.isNone())) {
                throw at.error("/load/links", who + " from network namespaces of its own; leave load.links out");
            }
        }

        /** The descriptor's {@code builds:} by name: the builds topologies' tiers name, each checked as an EdgeLab build. */
        private Map<String, ServerBuild> builds(List<DescriptorSpec.Server> specs) {
            Map<String, ServerBuild> out = new LinkedHashMap<>();
            if (specs == null) {
                return out;
            }
            for (int i = 0; i < specs.size(); i++) {
                DescriptorSpec.Server s = specs.get(i);
                String pointer = "/builds/" + i;
                if (s == null || s.engine() == null || s.engine().isBlank() || s.engine().equals(ServerBuild.NO_CACHE)) {
                    throw at.error(pointer + "/engine", "a tier's build needs a storage engine; known: " + String.join(", ", StorageEngines.names()));
                }
                if (s.topology() != null || s.target() != null || s.optional() != null) {
                    throw at.error(pointer, "a build of builds: gives name, engine, settings and target_settings only (its tier's"
                            + " topology says where it runs)");
                }
                String buildName = s.name() == null ? s.engine() : s.name();
                if (!buildName.matches("[A-Za-z0-9._-]{1,100}")) {
                    throw at.error(pointer + "/name", "'" + buildName + "' must be 1-100 characters of letters, digits, '.', '_' or '-'");
                }
                ServerBuild build = new ServerBuild(buildName, Targets.DEFAULT, s.engine(), s.settings() == null ? Map.of() : s.settings(),
                        s.targetSettings() == null ? Map.of() : s.targetSettings());
                try {
                    EdgeLabBuilds.validate(build);
                } catch (BuildValidationException e) {
                    throw at.error(pointer + "/" + e.field(), e.getMessage());
                }
                if (out.put(buildName, build) != null) {
                    throw at.error(pointer + "/name", "two builds are named '" + buildName + "'; give each a distinct name");
                }
            }
            return out;
        }

        /** The topology at {@code pointer}, its tiers' builds found in {@code builds}, for a build on {@code target}. */
        private Topology topology(DescriptorSpec.TopologySpec spec, String pointer, Target target, Map<String, ServerBuild> builds) {
            if (!target.runsTopologies()) {
                throw at.error(pointer, "target '" + target.name() + "' runs one cache, not a topology; targets that run topologies: "
                        + Targets.all().stream().filter(Target::runsTopologies).map(Target::name).toList());
            }
            List<DescriptorSpec.TierSpec> tiers = spec.tiers() == null ? List.of() : spec.tiers();
            if (tiers.isEmpty()) {
                throw at.error(pointer + "/tiers", "a topology needs at least one tier (the edge): tiers: - {name: edge, build: NAME}");
            }
            int workers = spec.workers() == null ? 1 : spec.workers();
            if (workers < 1) {
                throw at.error(pointer + "/workers", "a topology needs at least one load worker, got " + workers);
            }
            List<String> names = new ArrayList<>();
            List<String> parents = new ArrayList<>();
            List<Topology.Tier> out = new ArrayList<>();
            for (int j = 0; j < tiers.size(); j++) {
                DescriptorSpec.TierSpec t = tiers.get(j);
                String tp = pointer + "/tiers/" + j;
                if (t == null || !Topology.validName(t.name())) {
                    throw at.error(tp + "/name", "every tier needs a name of 1-12 of [a-z0-9-] starting with a letter (edge, parent, ...),"
                            + " other than '" + Topology.ORIGIN + "'");
                }
                if (t.build() == null || !builds.containsKey(t.build())) {
                    throw at.error(tp + "/build", "tier '" + t.name() + "' names build '" + t.build() + "', which is not among builds: "
                            + (builds.isEmpty() ? "(none: add a builds: list of name, engine, settings)" : builds.keySet()));
                }
                int replicas = t.replicas() == null ? 1 : t.replicas();
                if (replicas < 1) {
                    throw at.error(tp + "/replicas", "tier '" + t.name() + "' needs at least one replica, got " + replicas);
                }
                names.add(t.name());
                parents.add(t.parent());
                ServerBuild b = builds.get(t.build());
                out.add(new Topology.Tier(t.name(), new ServerBuild(b.name(), target.name(), b.engine(), b.settings(), b.targetSettings()),
                        replicas, t.parent()));
            }
            int fault = Topology.faultyTier(names, parents);
            if (fault >= 0) {
                String field = fault < names.size() && names.indexOf(names.get(fault)) != fault ? "/name" : "/parent";
                throw at.error(pointer + "/tiers/" + fault + field, Topology.chainProblem(names, parents));
            }
            return new Topology(workers, out);
        }

        /** Whether builds on the default target run beside builds on another (a peer, a container, a process). */
        private static boolean besidePeers(List<ServerBuild> servers) {
            return servers.stream().anyMatch(b -> b.target().equals(Targets.DEFAULT))
                    && servers.stream().anyMatch(b -> !b.target().equals(Targets.DEFAULT));
        }

        private List<ServerBuild> servers(List<DescriptorSpec.Server> specs, String defaultTarget,
                                          Map<String, String> defaultTargetSettings, Map<String, ServerBuild> builds,
                                          List<String> notes) {
            if (specs == null || specs.isEmpty()) {
                throw at.error("/servers", "at least one server build is required (servers: - engine: memory)");
            }
            List<ServerBuild> out = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (int i = 0; i < specs.size(); i++) {
                DescriptorSpec.Server s = specs.get(i);
                String pointer = "/servers/" + i;
                if (s != null && s.topology() != null) {
                    ServerBuild build = topologyServer(s, pointer, defaultTarget, defaultTargetSettings, builds, names);
                    Optional<String> unavailable = Boolean.TRUE.equals(s.optional())
                            ? Targets.get(build.target()).unavailableReason(build) : Optional.empty();
                    if (unavailable.isPresent()) {
                        notes.add("server '" + build.name() + "' skipped: " + unavailable.get());
                    } else {
                        out.add(build);
                    }
                    continue;
                }
                if (s == null || s.engine() == null || s.engine().isBlank()) {
                    throw at.error(pointer + "/engine", "every server build needs an engine; known storage engines: "
                            + String.join(", ", StorageEngines.names()) + " (or none: no cache, straight to the origin)");
                }
                String buildName = s.name() == null ? s.engine() : s.name();
                if (!buildName.matches("[A-Za-z0-9._-]{1,100}")) {
                    throw at.error(pointer + "/name", "'" + buildName + "' must be 1-100 characters of letters, digits, '.', '_' or '-'");
                }
                if (!names.add(buildName)) {
                    throw at.error(pointer + "/name", "two server builds are named '" + buildName + "'; give each a distinct name");
                }
                String targetName = s.target() == null ? defaultTarget : s.target();
                Target target;
                try {
                    target = Targets.get(targetName);
                } catch (UnknownPluginException e) {
                    if (Boolean.TRUE.equals(s.optional())) {
                        notes.add("server '" + buildName + "' skipped: " + e.getMessage()
                                + " (peer targets come with the peers module, which ./edgelab includes)");
                        continue;
                    }
                    throw at.error(pointer + "/target", e.getMessage());
                }
                Map<String, String> targetSettings = new LinkedHashMap<>(defaultTargetSettings);
                if (s.targetSettings() != null) {
                    targetSettings.putAll(s.targetSettings());
                }
                if (target.runsTopologies()) {
                    throw at.error(pointer + "/target", "target '" + target.name() + "' runs topologies: give server '" + buildName
                            + "' a topology: (workers, tiers of builds) instead of an engine");
                }
                Map<String, String> settings = s.settings() == null ? Map.of() : new LinkedHashMap<>(s.settings());
                ServerBuild build = new ServerBuild(buildName, target.name(), s.engine(), settings, targetSettings);
                if (Boolean.TRUE.equals(s.optional())) {
                    Optional<String> unavailable = target.unavailableReason(build);
                    if (unavailable.isPresent()) {
                        notes.add("server '" + buildName + "' skipped: " + unavailable.get());
                        continue;
                    }
                }
                try {
                    target.validate(build);
                } catch (BuildValidationException e) {
                    throw buildError(pointer, e);
                }
                out.add(build);
            }
            if (out.isEmpty()) {
                throw at.error("/servers", "no server build can run: " + String.join("; ", notes));
            }
            return out;
        }

        /** A server whose {@code topology:} replaces an engine: its tiers resolved, checked by its target. */
        private ServerBuild topologyServer(DescriptorSpec.Server s, String pointer, String defaultTarget,
                                           Map<String, String> defaultTargetSettings, Map<String, ServerBuild> builds, Set<String> names) {
            if (s.engine() != null || s.settings() != null) {
                throw at.error(pointer + (s.engine() != null ? "/engine" : "/settings"), "a server with a topology takes its engines"
                        + " and settings from its tiers' builds; leave engine and settings out");
            }
            String buildName = s.name() == null ? "topology" : s.name();
            if (!buildName.matches("[A-Za-z0-9._-]{1,100}")) {
                throw at.error(pointer + "/name", "'" + buildName + "' must be 1-100 characters of letters, digits, '.', '_' or '-'");
            }
            if (!names.add(buildName)) {
                throw at.error(pointer + "/name", "two server builds are named '" + buildName + "'; give each a distinct name");
            }
            Target target;
            try {
                target = Targets.get(s.target() == null ? defaultTarget : s.target());
            } catch (UnknownPluginException e) {
                throw at.error(pointer + "/target", e.getMessage());
            }
            Topology topology = topology(s.topology(), pointer + "/topology", target, builds);
            Map<String, String> targetSettings = new LinkedHashMap<>(defaultTargetSettings);
            if (s.targetSettings() != null) {
                targetSettings.putAll(s.targetSettings());
            }
            ServerBuild edge = topology.edge().build();
            ServerBuild build = new ServerBuild(buildName, target.name(), edge.engine(), edge.settings(), targetSettings, topology);
            try {
                target.validate(build);
            } catch (BuildValidationException e) {
                throw buildError(pointer, e);
            }
            return build;
        }

        private LoadProfile load(DescriptorSpec.Load spec, DescriptorSource source, List<String> notes) {
            DescriptorSpec.Load l = spec != null ? spec : new DescriptorSpec.Load(null, null, null, null, null, null, null, null, null, null, null);
            List<Integer> connections = l.connections() == null || l.connections().isEmpty() ? List.of(10) : l.connections();
            for (int i = 0; i < connections.size(); i++) {
                if (connections.get(i) == null || connections.get(i) < 1) {
                    throw at.error("/load/connections/" + i, "connections must be at least 1, got " + connections.get(i));
                }
            }
            int threads = l.threads() == null ? 1 : l.threads();
            if (threads < 1) {
                throw at.error("/load/threads", "threads must be at least 1 (cells with fewer connections use one per connection), got " + threads);
            }
            Duration duration = l.duration() == null ? Duration.ofSeconds(10) : l.duration().duration();
            if (duration.isZero()) {
                throw at.error("/load/duration", "the duration must be more than 0");
            }
            long requests = l.requests() == null ? 0 : l.requests();
            if (requests < 0) {
                throw at.error("/load/requests", "requests must be at least 0 (0 or absent: only load.duration ends the"
                        + " measured run), got " + requests);
            }
            Duration timeout = l.timeout() == null ? Duration.ofSeconds(10) : l.timeout().duration();
            if (timeout.isZero()) {
                throw at.error("/load/timeout", "the timeout must be more than 0");
            }
            Settle settle = settle(l.settle());
            if (l.rate() != null) {
                try {
                    RateSchedule.parse(l.rate(), duration);
                } catch (IllegalArgumentException e) {
                    throw at.error("/load/rate", e.getMessage());
                }
            }
            DescriptorSpec.Workload w = l.workload() != null ? l.workload() : new DescriptorSpec.Workload(null, null, null, null, null, null, null, null);
            List<ByteSizeValue> sizes = w.objectSizes() == null || w.objectSizes().isEmpty()
                    ? List.of(ByteSizeValue.parse("100KB")) : w.objectSizes();
            for (int i = 0; i < sizes.size(); i++) {
                if (sizes.get(i) == null || sizes.get(i).bytes() < 1) {
                    throw at.error("/load/workload/object_sizes/" + i, "object sizes must be at least 1 byte");
                }
            }
            long workingSet = w.workingSet() == null ? 64L << 20 : w.workingSet().bytes();
            if (workingSet < 1) {
                throw at.error("/load/workload/working_set", "the working set must be at least 1 byte");
            }
            long maxObjects = w.maxObjects() == null ? 10_000 : w.maxObjects();
            if (maxObjects < 1) {
                throw at.error("/load/workload/max_objects", "must be at least 1, got " + maxObjects);
            }
            String popularity = w.popularity() == null ? "uniform" : w.popularity();
            try {
                Popularity.parse(popularity, 10);
            } catch (IllegalArgumentException e) {
                throw at.error("/load/workload/popularity", e.getMessage());
            }
            double target = w.targetHitRatio() == null ? Double.NaN : w.targetHitRatio();
            if (!Double.isNaN(target) && (target < 0 || target > 1)) {
                throw at.error("/load/workload/target_hit_ratio", "a hit ratio is between 0 and 1 (0.9 for 90 %), got " + target);
            }
            List<ByteSizeValue> ranges = w.rangeSizes() == null || w.rangeSizes().isEmpty()
                    ? List.of(ByteSizeValue.parse("0")) : w.rangeSizes();
            List<Link> links = new ArrayList<>();
            if (l.links() == null || l.links().isEmpty()) {
                links.add(Link.NONE);
            } else {
                for (int i = 0; i < l.links().size(); i++) {
                    links.add(link(l.links().get(i), "/load/links/" + i));
                }
            }
            String kind = w.kind() == null ? WorkloadPlugins.DEFAULT : w.kind();
            WorkloadPlugin plugin;
            try {
                plugin = WorkloadPlugins.get(kind);
            } catch (UnknownPluginException e) {
                throw at.error("/load/workload/kind", e.getMessage());
            }
            PluginSettings workloadSettings;
            try {
                workloadSettings = plugin.prepare(PluginSettings.of(w.settings()), source.directory());
            } catch (SettingException e) {
                throw at.error("/load/workload/settings" + (e.key().isEmpty() ? "" : "/" + e.key()), e.getMessage());
            }
            // a kernel link needs nothing of the client (it runs in the client namespace); a user-space one, or a kernel
            // one that may fall back to user space, is emulated by the client itself
            boolean userSpaceLink = links.stream().anyMatch(link -> !link.isNone()
                    && (link.emulation().equals(UserSpaceLink.EMULATION) || link.fallback()));
            // a steady-state settle is sent by loadgen, which tells the runner each second's completions
            Duration clientSettle = settle.auto() ? Duration.ZERO : settle.length();
            List<ClientChoice> clients = clients(l.client(), new ClientLoad(connections, threads, duration, requests, clientSettle, timeout,
                    l.rate(), plugin.name(), userSpaceLink), notes);
            return new LoadProfile(connections, threads, duration, requests, timeout, l.rate(), l.warmUp() == null || l.warmUp(), settle,
                    sizes, workingSet, maxObjects, popularity, target, ranges, links, plugin.name(), workloadSettings.asMap(),
                    clients);
        }

        /** {@code load.settle}: none, a duration, {@code auto} or the steady-state mapping, each value checked where it is written. */
        private Settle settle(SettleValue spec) {
            String pointer = "/load/settle";
            if (spec == null) {
                return Settle.NONE;
            }
            if (!spec.isMapping()) {
                if (spec.text().equalsIgnoreCase(SettleValue.AUTO)) {
                    return Settle.steady(Settle.DEFAULT_MAX, Settle.DEFAULT_TOLERANCE, Settle.DEFAULT_WINDOWS);
                }
                try {
                    return Settle.fixed(Durations.parse(spec.text()));
                } catch (IllegalArgumentException e) {
                    throw at.error(pointer, e.getMessage() + "; a settle is " + SettleValue.EXPECTED);
                }
            }
            Map<String, String> fields = spec.fields();
            for (String key : fields.keySet()) {
                if (!List.of("auto", "min", "max", "tolerance", "windows", "jit").contains(key)) {
                    throw at.error(pointer + "/" + key, "unknown field '" + key + "' of a settle; known fields here: auto, min, max,"
                            + " tolerance, windows, jit");
                }
            }
            if (!"true".equalsIgnoreCase(fields.get("auto"))) {
                throw at.error(fields.containsKey("auto") ? pointer + "/auto" : pointer, "a settle written as a mapping is the"
                        + " steady-state one and says auto: true ({auto: true, max: 30s, tolerance: 5%, windows: 3}); for a fixed"
                        + " settle write a duration such as 10s, for none leave settle out");
            }
            Duration max = settleDuration(fields, "max", Settle.DEFAULT_MAX, pointer);
            double tolerance = Settle.DEFAULT_TOLERANCE;
            if (fields.containsKey("tolerance")) {
                tolerance = fraction(fields.get("tolerance"), pointer + "/tolerance");
            }
            int windows = Settle.DEFAULT_WINDOWS;
            if (fields.containsKey("windows")) {
                String text = fields.get("windows");
                if (!text.matches("\\d{1,4}") || Integer.parseInt(text) < 2) {
                    throw at.error(pointer + "/windows", "windows is how many consecutive " + Durations.format(Settle.WINDOW)
                            + " windows must agree, a whole number of at least 2; got '" + text + "'");
                }
                windows = Integer.parseInt(text);
            }
            Duration least = Settle.WINDOW.multipliedBy(windows);
            if (max.compareTo(least) < 0) {
                throw at.error(fields.containsKey("max") ? pointer + "/max" : pointer, "max " + Durations.format(max)
                        + " is shorter than the " + windows + " windows of " + Durations.format(Settle.WINDOW)
                        + " the settle compares; give at least " + Durations.format(least));
            }
            double jit = Settle.DEFAULT_JIT_MS_PER_SECOND;
            if (fields.containsKey("jit")) {
                jit = jitBound(fields.get("jit"), pointer + "/jit");
            }
            Duration min = settleDuration(fields, "min", Duration.ZERO, pointer);
            if (min.compareTo(max) > 0) {
                throw at.error(pointer + "/min", "min " + Durations.format(min) + " is longer than the settle's max "
                        + Durations.format(max) + "; the settle runs at least min and at most max");
            }
            return Settle.steady(max, tolerance, windows, jit, min);
        }

        /** The settle mapping's duration field {@code key}, or {@code absent} when it is not given; refused at its line if unreadable. */
        private Duration settleDuration(Map<String, String> fields, String key, Duration absent, String pointer) {
            if (!fields.containsKey(key)) {
                return absent;
            }
            try {
                return Durations.parse(fields.get(key));
            } catch (IllegalArgumentException e) {
                throw at.error(pointer + "/" + key, e.getMessage());
            }
        }

        /** A settle's JIT bound, written {@code 50ms/s} (JIT compile time per second) or {@code off}; 0 for off. */
        private double jitBound(String text, String pointer) {
            if (text.equalsIgnoreCase("off") || text.equalsIgnoreCase("false")) {
                return 0;
            }
            Matcher m = JIT_BOUND.matcher(text);
            if (!m.matches() || !(Double.parseDouble(m.group(1)) > 0)) {
                throw at.error(pointer, "jit is the most JIT compile time per second, over the settle's windows, that counts as a"
                        + " warm JVM, such as 50ms/s, or off; got '" + text + "'");
            }
            return Double.parseDouble(m.group(1));
        }

        /** A fraction written as {@code 0.05} or {@code 5%}, more than 0 and less than 1. */
        private double fraction(String text, String pointer) {
            String problem = "tolerance is the largest spread of req/s, (max - min) / mean, that counts as steady: a fraction"
                    + " such as 0.05 or a percentage such as 5%, more than 0 and below 100 %; got '" + text + "'";
            double value;
            try {
                value = text.endsWith("%") ? Double.parseDouble(text.substring(0, text.length() - 1).trim()) / 100 : Double.parseDouble(text);
            } catch (NumberFormatException e) {
                throw at.error(pointer, problem);
            }
            if (!(value > 0 && value < 1)) {
                throw at.error(pointer, problem);
            }
            return value;
        }

        /** The load clients that can run here, each checked against the load; those whose tool is missing become notes. */
        private List<ClientChoice> clients(List<ClientValue> specs, ClientLoad load, List<String> notes) {
            if (specs == null || specs.isEmpty()) {
                return List.of(ClientChoice.LOADGEN);
            }
            List<ClientChoice> out = new ArrayList<>();
            List<String> skipped = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (int i = 0; i < specs.size(); i++) {
                String pointer = "/load/client/" + i;
                ClientValue spec = specs.get(i);
                if (spec == null) {
                    throw at.error(pointer, "a load client's name is missing; known load clients: " + String.join(", ", LoadClients.names()));
                }
                LoadClient client;
                try {
                    client = LoadClients.get(spec.kind());
                } catch (UnknownPluginException e) {
                    throw at.error(pointer, e.getMessage());
                }
                String name = spec.name() == null ? client.name() : spec.name();
                if (!name.matches("[A-Za-z0-9._-]{1,100}")) {
                    throw at.error(pointer + "/name", "'" + name + "' must be 1-100 characters of letters, digits, '.', '_' or '-'");
                }
                if (!names.add(name)) {
                    throw at.error(pointer, "two load clients are named '" + name + "'; give each a distinct name");
                }
                PluginSettings settings = PluginSettings.of(spec.settings());
                try {
                    client.validate(load, settings);
                } catch (SettingException e) {
                    if (!e.key().startsWith("/")) {
                        throw at.error(pointer + "/settings" + (e.key().isEmpty() ? "" : "/" + e.key()), e.getMessage());
                    }
                    // a field the client needs but the descriptor leaves out: point at the client that needs it
                    throw at.writes(e.key()) ? at.error(e.key(), e.getMessage())
                            : at.error(pointer, field(e.key()) + ": " + e.getMessage());
                }
                Optional<String> unavailable = client.unavailableReason(settings);
                if (unavailable.isPresent()) {
                    String note = "load client '" + name + "' skipped: " + unavailable.get();
                    skipped.add(note);
                    notes.add(note);
                    continue;
                }
                out.add(new ClientChoice(name, client.name(), settings.asMap()));
            }
            if (out.isEmpty()) {
                throw at.error("/load/client", "no load client can run here: " + String.join("; ", skipped));
            }
            return out;
        }

        private Link link(DescriptorSpec.Link spec, String pointer) {
            if (spec == null) {
                throw at.error(pointer, "a link needs a bandwidth and/or a latency");
            }
            long bits = spec.bandwidth() == null ? 0 : spec.bandwidth().bitsPerSecond();
            Duration latency = spec.latency() == null ? Duration.ZERO : spec.latency().duration();
            String name = spec.name() != null ? spec.name()
                    : bits == 0 && latency.isZero() ? "none"
                    : (spec.bandwidth() == null ? "unlimited" : spec.bandwidth().text())
                            + (latency.isZero() ? "" : "+" + spec.latency().text());
            String emulation;
            try {
                emulation = NetworkLinks.checkEmulation(spec.emulation() == null ? "kernel" : spec.emulation());
            } catch (IllegalArgumentException e) {
                throw at.error(pointer + "/emulation", e.getMessage());
            }
            String fallback = spec.fallback() == null ? "none" : spec.fallback();
            if (!fallback.equals("none") && !fallback.equals("user-space")) {
                throw at.error(pointer + "/fallback", "must be 'user-space' (use it where a kernel link cannot be made) or 'none', got '" + fallback + "'");
            }
            return new Link(name, bits, latency, emulation, fallback.equals("user-space"), spec.buffer() == null ? 0 : spec.buffer().bytes());
        }

        private Hardware hardware(DescriptorSpec.Hardware spec) {
            int detected = Runtime.getRuntime().availableProcessors();
            if (spec == null) {
                return new Hardware("unspecified", "no hardware profile given", detected, 0, List.of(), Link.NONE, Power.NONE);
            }
            int cores = spec.cores() == null ? detected : spec.cores();
            if (cores < 1) {
                throw at.error("/hardware/cores", "must be at least 1, got " + cores);
            }
            Power power = power(spec.power());
            return new Hardware(spec.name() == null ? "unnamed" : spec.name(), spec.description() == null ? "" : spec.description(),
                    cores, spec.memory() == null ? 0 : spec.memory().bytes(), spec.disks() == null ? List.of() : spec.disks(),
                    spec.link() == null ? Link.NONE : link(spec.link(), "/hardware/link"), power);
        }

        private Power power(Map<String, String> block) {
            if (block == null) {
                return Power.NONE;
            }
            Map<String, String> settings = new LinkedHashMap<>(block);
            String model = settings.remove("model");
            if (model == null) {
                model = PowerModels.DEFAULT;
            }
            if (model.equals(Power.NONE.model())) {
                return Power.NONE;
            }
            PowerModel plugin;
            try {
                plugin = PowerModels.get(model);
            } catch (UnknownPluginException e) {
                throw at.error("/hardware/power/model", e.getMessage() + " (or none: no power figures)");
            }
            try {
                plugin.validate(PluginSettings.of(settings));
            } catch (SettingException e) {
                throw at.error("/hardware/power" + (e.key().isEmpty() ? "" : "/" + e.key()), e.getMessage());
            }
            return new Power(plugin.name(), settings);
        }

        private List<String> matrix(List<String> spec, int servers, int clients, LoadProfile load) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            counts.put("server", servers);
            counts.put("object_size", load.objectSizes().size());
            counts.put("connections", load.connections().size());
            counts.put("range_size", load.rangeSizes().size());
            counts.put("link", load.links().size());
            counts.put("client", clients);
            Map<String, String> pointers = Map.of("server", "/servers", "object_size", "/load/workload/object_sizes",
                    "connections", "/load/connections", "range_size", "/load/workload/range_sizes", "link", "/load/links",
                    "client", "/load/client");
            List<String> matrix = new ArrayList<>();
            if (spec == null) {
                matrix.add("server");
                counts.forEach((dim, n) -> {
                    if (n > 1 && !dim.equals("server")) {
                        matrix.add(dim);
                    }
                });
                return matrix;
            }
            for (int i = 0; i < spec.size(); i++) {
                String dim = spec.get(i);
                if (!counts.containsKey(dim)) {
                    throw at.error("/matrix/" + i, "unknown dimension '" + dim + "'; dimensions: " + String.join(", ", Descriptor.DIMENSIONS));
                }
                if (matrix.contains(dim)) {
                    throw at.error("/matrix/" + i, "dimension '" + dim + "' is listed twice");
                }
                matrix.add(dim);
            }
            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                if (e.getValue() > 1 && !matrix.contains(e.getKey())) {
                    throw at.error(pointers.get(e.getKey()), "has " + e.getValue() + " values but '" + e.getKey()
                            + "' is not in matrix " + matrix + "; add it to matrix or give one value");
                }
            }
            return matrix;
        }
    }
}
