package org.edgelab.peers;

import java.io.IOException;
import org.edgelab.experiments.target.ServerCounters;

/** Reads a running peer's own counters (since it started) into EdgeLab's meaning; implementations say their thread-safety. */
@FunctionalInterface
public interface CounterSource {

    /** The peer's counters now. */
    ServerCounters read() throws IOException;
}
