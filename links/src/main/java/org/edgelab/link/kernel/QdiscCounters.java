package org.edgelab.link.kernel;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The counters of a device's root queueing discipline, read from {@code tc -s qdisc show}: bytes and packets it
 * sent and packets it dropped. Immutable.
 *
 * @param bytes   bytes sent
 * @param packets packets sent
 * @param dropped packets dropped (the queue was full)
 */
record QdiscCounters(long bytes, long packets, long dropped) {
    static final QdiscCounters ZERO = new QdiscCounters(0, 0, 0);
    private static final Pattern SENT = Pattern.compile("Sent (\\d+) bytes (\\d+) pkt \\(dropped (\\d+)");

    /** Reads the root qdisc of {@code device} in {@code namespace}. */
    static QdiscCounters read(String namespace, String device) {
        return parse(Commands.run(Commands.tcIn(namespace, "-s", "qdisc", "show", "dev", device, "root")));
    }

    /** Parses the first "Sent N bytes M pkt (dropped D, ..." of {@code tcOutput}. */
    static QdiscCounters parse(String tcOutput) {
        Matcher m = SENT.matcher(tcOutput);
        if (!m.find()) {
            throw new KernelLinkException("no 'Sent ... bytes' line in the output of tc -s qdisc: " + tcOutput.strip());
        }
        return new QdiscCounters(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    }
}
