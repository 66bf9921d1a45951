package org.edgelab.peers.nginx;

import java.util.Map;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.peers.PeerTargetContract;

/** nginx as a proxy_cache node caching 1 MiB slices (the object fits one slice), for real on loopback. */
class NginxSlicedProxyCacheTargetTest extends PeerTargetContract {

    @Override
    protected ServerBuild build() {
        return build("nginx", "proxy_cache", Map.of("size", "64MB", "slice", "1MiB"));
    }
}
