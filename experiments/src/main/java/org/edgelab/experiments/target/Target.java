package org.edgelab.experiments.target;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.edgelab.plugin.NamedPlugin;
import org.edgelab.plugin.Setting;

/**
 * Where the systems under test of one server build run ({@code embedded}, {@code process},
 * {@code container}, {@code external}, or a peer such as {@code varnish}): a plugin, found by name
 * through {@link Targets}, that checks a build and starts an origin and a server for it on loopback.
 * Implementations are stateless and thread-safe; what they start is a {@link RunningTarget}.
 */
public interface Target extends NamedPlugin {

    /** One line for {@code edgelab list} and error messages. */
    String description();

    /** The keys a build's {@code target_settings} may give this target (checked by {@link #validate}). */
    default List<Setting> settings() {
        return List.of();
    }

    /**
     * Checks a build written for this target without starting anything; throws
     * {@link BuildValidationException} naming the field ({@code engine}, {@code settings} or
     * {@code target_settings}) and what is wrong with it. Called while the descriptor loads.
     */
    void validate(ServerBuild build);

    /**
     * Checks, while the descriptor loads, that the build can send the descriptor's load: {@code connections} (each cell's
     * count) and the workload plugin {@code workloadKind}; throws {@link BuildValidationException} naming the build's
     * field at fault. Most targets take any load.
     */
    default void validateLoad(ServerBuild build, List<Integer> connections, String workloadKind) {
    }

    /**
     * Whether the runner only writes this build's cells out ({@link #render}) rather than running them: for a target
     * whose user applies what it writes by hand (the kubernetes target's {@code render_only}).
     */
    default boolean rendersOnly(ServerBuild build) {
        return false;
    }

    /**
     * Writes what would run {@code load} on this build into {@code context}'s work folder, starting nothing, and returns
     * the main file written; only called when {@link #rendersOnly} is true. May block (to build an image).
     */
    default java.nio.file.Path render(ServerBuild build, TargetContext context, CellLoad load) throws IOException {
        throw new UnsupportedOperationException("target " + name() + " does not render cells");
    }

    /**
     * Whether the build can run on this machine now: empty if so, otherwise a message that says what is
     * missing and how to get it (for a missing binary, the Debian package to install). Cheap.
     */
    Optional<String> unavailableReason(ServerBuild build);

    /**
     * Starts an origin and the server of {@code build} and returns once the server answers on loopback.
     * On failure, stops whatever it started before throwing.
     */
    RunningTarget start(ServerBuild build, TargetContext context) throws IOException;

    /**
     * Whether the target starts the server under test with {@link TargetContext#serverCommand}, so that it runs in the
     * memory cgroup the runner makes for the cell (the process target and the peers); false for targets that cannot
     * (embedded: the runner's own JVM) or bound memory themselves (container).
     */
    default boolean runsServerInCgroup() {
        return false;
    }

    /**
     * Whether the target can serve clients on {@link TargetContext#listen} other than loopback, from inside a network
     * namespace: started, read and stopped from a thread that has joined it, its client-facing listener on that
     * address, everything else (origin, admin) on the namespace's own loopback. Only such targets run behind a kernel
     * link; the others get the user-space link where the descriptor allows it.
     */
    default boolean listensOnAnyAddress() {
        return false;
    }

    /**
     * Whether the target runs builds with a {@link Topology} (tiers of caches and load workers of its own, the load
     * sent through {@link RunningTarget#ownLoad()}); a topology on any other target fails as the descriptor loads.
     */
    default boolean runsTopologies() {
        return false;
    }

    /** Whether the build keeps objects on disk (the power model counts the profile's disks as active). */
    default boolean usesDisk(ServerBuild build) {
        return EdgeLabBuilds.usesDisk(build);
    }
}
