/**
 * Peer caches as experiment targets: Varnish ({@code varnish}), nginx ({@code nginx}) and Apache Traffic
 * Server ({@code trafficserver}), each a {@link org.edgelab.experiments.target.Target} plugin that writes
 * the peer's configuration from a server build, starts it as a process on a loopback port in front of
 * EdgeLab's synthetic origin, and reads the peer's own counters into EdgeLab's result columns. This
 * package holds what every peer shares: finding binaries, settings, launching and the running peer.
 */
package org.edgelab.peers;
