/**
 * The {@code varnish} target: Varnish Cache with {@code malloc} or {@code file} storage, configured by a
 * generated VCL and measured with {@code varnishstat}.
 */
package org.edgelab.peers.varnish;
