package org.edgelab.link.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process has ended, counting a zombie as ended: for tests that check an orphan (a killed JVM's delay line,
 * a grandchild) is gone. Shipped in this module's test-jar. Stateless, thread-safe; reads {@code /proc}, never blocks.
 */
public final class ProcessEnd {
    private ProcessEnd() {
    }

    /**
     * Whether process {@code pid} has ended: gone, or a zombie not yet reaped. An orphan is reaped whenever the process
     * that adopts it gets to it (an init here took 1.6 s; one that never reaps, as a container's PID 1 may be, never
     * does); {@link ProcessHandle#isAlive} is true until then, though the process has exited and holds nothing.
     */
    public static boolean ended(long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return true;
        }
        try {
            // the state is the first field after the command's closing parenthesis
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state == 'Z' || state == 'X';
        } catch (IOException e) {
            return true; // reaped between the two reads
        }
    }
}
