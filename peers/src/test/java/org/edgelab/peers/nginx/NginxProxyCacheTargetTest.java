package org.edgelab.peers.nginx;

import java.util.Map;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.peers.PeerTargetContract;

/** nginx as a proxy_cache node caching whole objects, for real on loopback. */
class NginxProxyCacheTargetTest extends PeerTargetContract {

    @Override
    protected ServerBuild build() {
        return build("nginx", "proxy_cache", Map.of("size", "64MB", "worker_processes", "1"));
    }
}
