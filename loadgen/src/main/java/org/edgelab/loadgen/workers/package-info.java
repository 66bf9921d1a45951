/**
 * One load sent by several workers: each sends a {@link org.edgelab.loadgen.Segment} from a common start barrier and
 * hands back a {@link org.edgelab.loadgen.workers.WorkerReport}; {@link org.edgelab.loadgen.workers.MergedLoad} adds
 * their histograms and counters; {@link org.edgelab.loadgen.workers.LocalWorkers} runs the workers in this JVM.
 */
package org.edgelab.loadgen.workers;
