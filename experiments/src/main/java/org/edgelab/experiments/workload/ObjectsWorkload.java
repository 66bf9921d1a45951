package org.edgelab.experiments.workload;

import java.nio.file.Path;
import org.edgelab.loadgen.workload.ObjectWorkload;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.plugin.PluginSettings;

/**
 * The {@code objects} workload, the default: a set of synthetic objects of the cell's size (working set /
 * size objects, at most max_objects) picked by the descriptor's popularity, full or as ranges of the
 * cell's range size, aimed at the target hit ratio by loadgen's first-time share; its warm-up pass
 * fetches every set object once. All of its knobs are the workload block's own fields, so it takes no
 * {@code settings}. Stateless and thread-safe.
 */
public final class ObjectsWorkload implements WorkloadPlugin {

    @Override
    public String name() {
        return "objects";
    }

    @Override
    public String description() {
        return "synthetic object set (object_sizes, working_set, popularity, target_hit_ratio, range_sizes); the default";
    }

    @Override
    public PluginSettings prepare(PluginSettings settings, Path descriptorDirectory) {
        settings.requireOnly("workload 'objects' (its knobs are the workload block's own fields)", settings());
        return settings;
    }

    @Override
    public Workload create(WorkloadRequest request) {
        long size = request.objectSize();
        long objects = Math.max(1, Math.min(request.maxObjects(), request.workingSet() / size));
        ObjectWorkload measured = build(request, objects, request.targetHitRatio());
        // the warm-up pass (every set object once, full) does not depend on the target
        Workload warmUp = build(request, objects, 1.0).warmUp();
        return new PhasedWorkload(measured, warmUp);
    }

    private static ObjectWorkload build(WorkloadRequest request, long objects, double targetHitRatio) {
        return ObjectWorkload.builder()
                .objects(objects)
                .popularity(request.popularity())
                .sizes(String.valueOf(request.objectSize()))
                .targetHitRatio(targetHitRatio)
                .rangeSize(request.rangeSize())
                .namespace(request.namespace())
                .build();
    }

    @Override
    public String method() {
        return "warm-up pass over the object set, then first-time share 1-target (loadgen ObjectWorkload)";
    }
}
