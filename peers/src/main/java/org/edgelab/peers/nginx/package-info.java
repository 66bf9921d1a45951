/**
 * The {@code nginx} target: nginx as a {@code proxy_cache} node, or as a plain file server (the raw
 * baseline of the booster-http report), configured by a generated {@code nginx.conf} and measured from
 * its access log.
 */
package org.edgelab.peers.nginx;
