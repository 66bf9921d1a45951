package org.edgelab.cli;

import org.edgelab.cache.cli.ServeCommand;
import org.edgelab.origin.OriginConfig;
import org.edgelab.origin.OriginServer;

/**
 * The origin {@code edgelab serve} starts when given no {@code --origin}: EdgeLab's synthetic origin on a
 * free loopback port, so the cache can be tried with nothing else running. Stateless and thread-safe;
 * {@link #start()} blocks while the origin binds.
 */
final class SyntheticOrigin implements ServeCommand.EmbeddedOrigin {

    @Override
    public ServeCommand.Started start() {
        OriginServer origin = OriginServer.start(OriginConfig.builder().host("127.0.0.1").port(0).build());
        return new ServeCommand.Started(origin.baseUri(),
                "embedded synthetic origin on " + origin.baseUri() + " (objects at /objects/{size}/{id})",
                "/objects/1MiB/hello", origin::close);
    }
}
