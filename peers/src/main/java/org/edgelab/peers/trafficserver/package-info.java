/**
 * The {@code trafficserver} target: Apache Traffic Server as a reverse-proxy cache with its cache in a
 * file under {@code ${store}}, configured in a private runroot and measured through its
 * {@code stats_over_http} plugin.
 */
package org.edgelab.peers.trafficserver;
