/**
 * What a process costs, as every part of EdgeLab that measures one reads it: CPU time of the JVM and of chosen threads
 * ({@link org.edgelab.measure.CpuClock}), and device I/O, system calls and peak RSS of processes from Linux's
 * {@code /proc} ({@link org.edgelab.measure.ProcessIo}).
 */
package org.edgelab.measure;
