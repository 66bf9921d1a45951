package org.edgelab.kubernetes.manifest;

import java.util.List;

import org.edgelab.kubernetes.worker.WorkerSpec;

/**
 * Everything one cell puts on a cluster, before it is turned into objects by {@link Manifests}: the namespace, the
 * run's name (the prefix of every object's name), the image and the class path inside it, the origin, the cache tiers
 * ordered from the edge (which the workers load) to the last parent (which fetches from the origin), and the load the
 * workers divide. Today a plan has at most one tier; the list is where multi-tier topologies plug in. Immutable.
 *
 * @param namespace   the namespace every object goes to
 * @param run         the run's name: a DNS label of at most {@value #MAX_RUN} characters
 * @param image       the server image as the cluster pulls it ({@code registry/edgelab-server:tag})
 * @param classPath   the class path inside the image
 * @param jvmFlags    the runner's JVM flags every EdgeLab JVM in the cluster runs with: its {@code --add-opens}
 *                    and its logging settings (so {@code --log-level} reaches the pods)
 * @param tiers       the cache tiers from the edge to the last parent; empty for the no-cache baseline
 * @param load        the load the Job's workers divide (its URL is the edge tier's, or the origin's)
 */
public record ClusterPlan(String namespace, String run, String image, String classPath, List<String> jvmFlags,
                          List<Tier> tiers, WorkerSpec load) {
    /** The longest run name: object names add at most 22 characters and pod names stay within 63. */
    public static final int MAX_RUN = 40;

    /** Copies the lists; checks the names. */
    public ClusterPlan {
        tiers = List.copyOf(tiers);
        jvmFlags = List.copyOf(jvmFlags);
        requireDnsLabel("namespace", namespace);
        requireDnsLabel("run name", run);
        if (run.length() > MAX_RUN) {
            throw new IllegalArgumentException("the run name '" + run + "' is longer than " + MAX_RUN + " characters");
        }
    }

    /** Throws IllegalArgumentException unless {@code value} is a DNS label (RFC 1123: a-z, 0-9, '-', at most 63). */
    public static void requireDnsLabel(String what, String value) {
        if (value == null || !value.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
            throw new IllegalArgumentException("the " + what + " '" + value + "' is not a DNS label (lower-case letters, digits"
                    + " and '-', starting and ending with a letter or digit, at most 63 characters)");
        }
    }
}
