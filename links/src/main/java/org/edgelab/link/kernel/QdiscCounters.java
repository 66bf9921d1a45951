package org.edgelab.link.kernel;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one direction of a link sent: the counters of its device's root queueing discipline, read from
 * {@code tc -s qdisc show} (bytes and packets it sent and packets it dropped), or, for a direction with no shaper
 * (a veth's {@code noqueue} counts nothing), the device's own transmit counters from {@code ip -s link show}.
 * Immutable.
 *
 * @param bytes   bytes sent
 * @param packets packets sent
 * @param dropped packets dropped (the queue was full)
 */
record QdiscCounters(long bytes, long packets, long dropped) {
    private static final Pattern SENT = Pattern.compile("Sent (\\d+) bytes (\\d+) pkt \\(dropped (\\d+)");

    /** Reads the root qdisc of {@code device} in {@code namespace}. */
    static QdiscCounters read(String namespace, String device) {
        return parse(Commands.run(Commands.tcIn(namespace, "-s", "qdisc", "show", "dev", device, "root")));
    }

    /** Reads the transmit counters of {@code device} itself in {@code namespace}: what an unshaped direction sent. */
    static QdiscCounters readDevice(String namespace, String device) {
        return parseDevice(Commands.run(Commands.ipIn(namespace, "-s", "link", "show", "dev", device)));
    }

    /** Parses the numbers under "TX:" (bytes, packets, errors, dropped, ...) in {@code ipOutput} of {@code ip -s link show}. */
    static QdiscCounters parseDevice(String ipOutput) {
        String[] lines = ipOutput.split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].strip().startsWith("TX:")) {
                String[] f = lines[i + 1].strip().split("\\s+");
                if (f.length >= 4 && f[0].matches("\\d+") && f[1].matches("\\d+") && f[3].matches("\\d+")) {
                    return new QdiscCounters(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[3]));
                }
            }
        }
        throw new KernelLinkException("no 'TX:' counters in the output of ip -s link show: " + ipOutput.strip());
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
