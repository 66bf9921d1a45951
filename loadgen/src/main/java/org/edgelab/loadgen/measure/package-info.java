/**
 * Measurement: per-event-loop counters and HdrHistogram recorders, interval logs, error classes and CPU time.
 */
package org.edgelab.loadgen.measure;
