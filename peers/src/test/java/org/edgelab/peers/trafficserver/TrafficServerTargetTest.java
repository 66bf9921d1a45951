package org.edgelab.peers.trafficserver;

import java.util.Map;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.peers.PeerTargetContract;

/** Traffic Server with a cache file in the store, for real on loopback. */
class TrafficServerTargetTest extends PeerTargetContract {

    @Override
    protected ServerBuild build() {
        return build("trafficserver", "file", Map.of("size", "64MiB", "ram", "16MiB"));
    }
}
