/**
 * The link between the load generator and the server, shared by every connection of a load as one outbound
 * link is: {@link org.edgelab.loadgen.link.LinkEmulator}s chosen by name through
 * {@link org.edgelab.loadgen.link.LinkEmulators} (user space now; the kernel's namespaces and qdiscs beside
 * it later), the open {@link org.edgelab.loadgen.link.Link} a load's connections cross, and the
 * {@link org.edgelab.loadgen.link.LinkReport} a result carries (which emulation, the rate measured).
 */
package org.edgelab.loadgen.link;
