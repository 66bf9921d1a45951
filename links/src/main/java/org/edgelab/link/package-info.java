/**
 * Emulated links between a load and its servers, shared by every connection that crosses them as one outbound link
 * is: {@link org.edgelab.link.NetworkLink} (where each side runs, what the link carried, its probed round trip),
 * opened by {@link org.edgelab.link.NetworkLinks} as a kernel link ({@link org.edgelab.link.kernel}) or a user-space
 * one ({@link org.edgelab.link.UserSpaceLink}, shaped by the load generator's sockets).
 */
package org.edgelab.link;
