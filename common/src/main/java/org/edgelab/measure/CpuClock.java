package org.edgelab.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * Reads CPU time of this process and of a set of threads (the event loops), in nanoseconds.
 *
 * <p>Thread-safety: stateless apart from the immutable thread-id list; safe from any thread.
 */
public final class CpuClock {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final List<Long> threadIds;

    /** Measures the threads with these ids (ids of threads that have ended read as zero). */
    public CpuClock(List<Long> threadIds) {
        this.threadIds = List.copyOf(threadIds);
    }

    /** CPU nanoseconds of the whole process so far, or -1 where the JVM cannot tell. */
    public static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    /** Sum of the CPU nanoseconds of the measured threads so far, or -1 if unsupported. */
    public long threadCpuNanos() {
        if (!threads.isThreadCpuTimeSupported()) {
            return -1;
        }
        long sum = 0;
        for (long id : threadIds) {
            long t = threads.getThreadCpuTime(id);
            if (t > 0) {
                sum += t;
            }
        }
        return sum;
    }
}
