package org.edgelab.kubernetes.worker;

import java.io.IOException;

import org.edgelab.loadgen.workers.WorkerReport;

/**
 * How a worker pod hands its {@link WorkerReport} back: the report's JSON between two marker lines on its standard
 * output, which the runner reads through the API server as the pod's log. Whatever else the JVM logs before or after
 * (the image has no shell to redirect it) is ignored. Stateless and thread-safe.
 */
public final class WorkerLog {
    /** The line before the report. */
    public static final String BEGIN = "----- edgelab worker report begin -----";
    /** The line after the report. */
    public static final String END = "----- edgelab worker report end -----";

    private WorkerLog() {
    }

    /** The report framed by the markers, as a worker prints it. */
    public static String frame(WorkerReport report) throws IOException {
        return BEGIN + "\n" + report.toJson() + "\n" + END + "\n";
    }

    /**
     * The report in a pod's log; throws IOException naming {@code pod} when the log holds none (the worker failed
     * before it finished, or the log was cut) or holds a broken one.
     */
    public static WorkerReport read(String log, String pod) throws IOException {
        int begin = log.lastIndexOf(BEGIN);
        int end = begin < 0 ? -1 : log.indexOf(END, begin);
        if (begin < 0 || end < 0) {
            String tail = log.length() > 2000 ? log.substring(log.length() - 2000) : log;
            throw new IOException("the log of worker pod " + pod + " holds no complete report; its end: " + tail.strip());
        }
        return WorkerReport.parse(log.substring(begin + BEGIN.length(), end), "the log of worker pod " + pod);
    }
}
