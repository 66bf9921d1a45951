package org.edgelab.experiments.workload;

import org.edgelab.loadgen.workload.RequestGenerator;
import org.edgelab.loadgen.workload.Workload;
import org.edgelab.origin.content.SyntheticPaths;

/**
 * {@code count} synthetic objects of {@code objectBytes} each, named {@code <prefix><first + n>}, fetched whole in
 * order: request n of a load asks for object {@code first + n}, so a load of {@code count} requests fetches each once.
 * Immutable and thread-safe.
 *
 * @param description what {@link #describe()} says
 */
public record NumberedObjects(String prefix, long first, long count, long objectBytes, String description) implements Workload {

    @Override
    public RequestGenerator newGenerator(long seed) {
        return (ticket, slot) -> {
            String id = prefix + (first + ticket);
            slot.full(SyntheticPaths.path(id, objectBytes), id, objectBytes);
        };
    }

    @Override
    public long size() {
        return count;
    }

    @Override
    public String describe() {
        return description;
    }
}
