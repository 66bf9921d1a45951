package org.edgelab.link;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.Callable;

/** The host's own network, loopback ({@code 127.0.0.1}): both ends of a user-space link or of none. Stateless, thread-safe. */
public final class HostEndpoint implements Endpoint {
    /** The one instance. */
    public static final HostEndpoint LOOPBACK = new HostEndpoint();

    private HostEndpoint() {
    }

    @Override
    public String name() {
        return "host";
    }

    @Override
    public InetAddress address() {
        return InetAddress.getLoopbackAddress();
    }

    @Override
    public boolean isHost() {
        return true;
    }

    @Override
    public <T> T call(Callable<T> task) throws Exception {
        return task.call();
    }

    @Override
    public List<String> command(List<String> command) {
        return List.copyOf(command);
    }

    @Override
    public void checkCurrentThread() {
    }
}
