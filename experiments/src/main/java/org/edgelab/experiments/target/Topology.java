package org.edgelab.experiments.target;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cache tiers in front of one origin, sent a load by several workers: the first tier is the edge, whose replicas the
 * workers reach by a consistent hash of each request's path; each tier fetches its misses from its parent tier's
 * replicas (a consistent-hash ring of them) and the last tier from the origin. A server build with a topology runs on
 * a target that {@link Target#runsTopologies() runs topologies}. Immutable and thread-safe.
 *
 * @param workers load workers, each sending its segment of the cell's load
 * @param tiers   the tiers from the edge to the last parent, each tier's parent after it
 */
public record Topology(int workers, List<Tier> tiers) {

    /**
     * One tier.
     *
     * @param name     a short name ([a-z0-9-]), in node names and result columns ({@code tier_<name>_hit_ratio})
     * @param build    the server build every replica runs (an EdgeLab engine and its settings)
     * @param replicas how many nodes run it
     * @param parent   the tier misses go to, or null for the origin
     */
    public record Tier(String name, ServerBuild build, int replicas, String parent) {
        /** Checks the name and the count. */
        public Tier {
            if (!validName(name)) {
                throw new IllegalArgumentException("a tier's name is 1-12 of [a-z0-9-], a letter first, not '" + ORIGIN
                        + "', got '" + name + "'");
            }
            if (replicas < 1) {
                throw new IllegalArgumentException("tier " + name + " needs at least one replica, got " + replicas);
            }
        }
    }

    /** A tier's name: short, as node names are built from it. */
    public static final String NAME = "[a-z][a-z0-9-]{0,11}";
    /** The origin's name beside the tiers' (in per-tier figures), which no tier may take. */
    public static final String ORIGIN = "origin";

    /** Whether {@code name} can name a tier: {@link #NAME}, and not {@link #ORIGIN}. */
    public static boolean validName(String name) {
        return name != null && name.matches(NAME) && !name.equals(ORIGIN);
    }

    /** Copies the list and checks the chain: see {@link #chainProblem}. */
    public Topology {
        tiers = List.copyOf(tiers);
        if (workers < 1) {
            throw new IllegalArgumentException("a topology needs at least one load worker, got " + workers);
        }
        String problem = chainProblem(tiers.stream().map(Tier::name).toList(), tiers.stream().map(Tier::parent).toList());
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** The edge tier, which the workers send to. */
    public Tier edge() {
        return tiers.get(0);
    }

    /** The tier whose parent {@code tier} is, or null for the origin. */
    public Tier parentOf(Tier tier) {
        return tier.parent() == null ? null : tiers.stream().filter(t -> t.name().equals(tier.parent())).findFirst().orElseThrow();
    }

    /** Cache nodes of every tier together. */
    public int nodes() {
        return tiers.stream().mapToInt(Tier::replicas).sum();
    }

    /**
     * What is wrong with tiers {@code names} whose parents are {@code parents} (null: the origin), or null when they form
     * one chain from the first tier (the edge) to the origin: no tiers, a name twice, a parent that is no tier, a cycle of
     * parents, or a tier the edge's misses never reach. A message names the tier at fault; {@link #faultyTier} its index.
     */
    public static String chainProblem(List<String> names, List<String> parents) {
        int at = faultyTier(names, parents);
        if (at < 0) {
            return null;
        }
        if (at == names.size()) {
            return "a topology needs at least one tier (the edge)";
        }
        String name = names.get(at);
        if (names.indexOf(name) != at) {
            return "two tiers are named '" + name + "'";
        }
        String parent = parents.get(at);
        if (parent != null && !names.contains(parent)) {
            return "tier '" + name + "' names parent '" + parent + "', which is no tier of this topology; tiers: " + names
                    + " (leave parent out for the origin)";
        }
        List<String> path = walk(names, parents, at);
        if (path.get(path.size() - 1) != null && path.indexOf(path.get(path.size() - 1)) < path.size() - 1) {
            return "the parents of tier '" + name + "' form a cycle: " + String.join(" -> ", path)
                    + "; the last tier of the chain has no parent (its misses go to the origin)";
        }
        return "tier '" + name + "' is not on the edge tier's way to the origin (" + String.join(" -> ",
                walk(names, parents, 0).stream().map(n -> n == null ? "origin" : n).toList()) + "); every tier but the edge"
                + " must be the parent of one";
    }

    /**
     * The index of the first tier at fault (see {@link #chainProblem}), {@code names.size()} for no tiers at all, or -1
     * when the chain is sound.
     */
    public static int faultyTier(List<String> names, List<String> parents) {
        if (names.isEmpty()) {
            return 0;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            if (!seen.add(names.get(i))) {
                return i;
            }
            String parent = parents.get(i);
            if (parent != null && !names.contains(parent)) {
                return i;
            }
        }
        for (int i = 0; i < names.size(); i++) {
            List<String> path = walk(names, parents, i);
            String last = path.get(path.size() - 1);
            if (last != null) {
                return i; // a cycle: the walk met a tier twice
            }
        }
        Set<String> reached = new LinkedHashSet<>(walk(names, parents, 0));
        for (int i = 1; i < names.size(); i++) {
            if (!reached.contains(names.get(i))) {
                return i;
            }
        }
        return -1;
    }

    /** The tiers from tier {@code from} following parents: ends with null at the origin, or with the first tier met twice. */
    private static List<String> walk(List<String> names, List<String> parents, int from) {
        Map<String, String> parentOf = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            parentOf.putIfAbsent(names.get(i), parents.get(i));
        }
        List<String> path = new ArrayList<>();
        String at = names.get(from);
        Set<String> seen = new HashSet<>();
        while (at != null) {
            path.add(at);
            if (!seen.add(at)) {
                return path;
            }
            at = parentOf.get(at);
        }
        path.add(null);
        return path;
    }
}
