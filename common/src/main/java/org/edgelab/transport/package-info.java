/** Netty event-loop helpers shared by EdgeLab's HTTP servers (the origin and the cache server). */
package org.edgelab.origin.transport;
