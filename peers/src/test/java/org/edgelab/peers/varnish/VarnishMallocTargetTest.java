package org.edgelab.peers.varnish;

import java.util.Map;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.peers.PeerTargetContract;

/** Varnish with malloc storage, for real on loopback. */
class VarnishMallocTargetTest extends PeerTargetContract {

    @Override
    protected ServerBuild build() {
        return build("varnish", "malloc", Map.of("size", "64MB"));
    }
}
