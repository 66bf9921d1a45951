package org.edgelab.experiments.runner;

import java.util.List;
import org.edgelab.experiments.client.ClientChoice;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.plugin.SettingException;

/**
 * The descriptor checks the experiment kinds that drive loadgen themselves make alike, for their
 * {@link ExperimentPlugin#validate}: each throws a {@link SettingException} at the descriptor's place, saying which kind
 * refuses it and why ("the KIND experiment WHY ..."). Stateless and thread-safe.
 */
public final class KindChecks {

    private KindChecks() {
    }

    /** Refuses a workload other than {@code workload}: "the KIND experiment WHY, got 'X'". */
    public static void workload(Descriptor d, String kind, String workload, String why) {
        if (!d.load().workloadKind().equals(workload)) {
            throw new SettingException("/load/workload/kind", "the " + kind + " experiment " + why + ", got '"
                    + d.load().workloadKind() + "'");
        }
    }

    /** Refuses a load client other than loadgen alone: "the KIND experiment WHY; remove load.client". */
    public static void loadgenOnly(Descriptor d, String kind, String why) {
        if (!d.load().clients().equals(List.of(ClientChoice.LOADGEN))) {
            throw new SettingException("/load/client", "the " + kind + " experiment " + why + "; remove load.client");
        }
    }

    /** Refuses a link: the kind runs on loopback. */
    public static void loopbackOnly(Descriptor d, String kind) {
        if (d.load().links().stream().anyMatch(l -> !l.isNone())) {
            throw new SettingException("/load/links", "the " + kind + " experiment runs on loopback; remove load.links");
        }
    }

    /** Refuses a bound on the number of requests ({@code load.requests}): "the KIND experiment WHY; remove requests". */
    public static void unboundedByRequests(Descriptor d, String kind, String why) {
        if (d.load().requests() > 0) {
            throw new SettingException("/load/requests", "the " + kind + " experiment " + why + "; remove requests");
        }
    }

    /** Refuses a request rate: "the KIND experiment WHY; remove rate". */
    public static void closedLoop(Descriptor d, String kind, String why) {
        if (d.load().rate() != null) {
            throw new SettingException("/load/rate", "the " + kind + " experiment " + why + "; remove rate");
        }
    }
}
