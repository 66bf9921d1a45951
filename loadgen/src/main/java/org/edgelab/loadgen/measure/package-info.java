/**
 * Measurement: per-event-loop counters and HdrHistogram recorders, interval logs and error classes (CPU time is
 * common's {@link org.edgelab.measure.CpuClock}).
 */
package org.edgelab.loadgen.measure;
