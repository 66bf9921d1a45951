package org.edgelab.loadgen.workers;

import java.util.concurrent.Callable;

import org.edgelab.loadgen.LoadResult;

/**
 * Where each of a load's workers runs its part: on the calling thread ({@link #HERE}), or on a thread a caller puts
 * somewhere else first, such as a network namespace of the worker's own, whose sockets and event loops (started from
 * that thread) then stay there. Implementations are thread-safe; {@link #run} blocks until the task has run.
 */
@FunctionalInterface
public interface WorkerPlacement {
    /** Every worker on the calling thread's side. */
    WorkerPlacement HERE = (worker, task) -> task.call();

    /** Runs {@code task}, worker {@code worker}'s part of the load, where that worker belongs, and returns its result. */
    LoadResult run(int worker, Callable<LoadResult> task) throws Exception;
}
