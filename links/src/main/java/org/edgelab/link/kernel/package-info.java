/**
 * Links emulated in the kernel: a {@link org.edgelab.link.kernel.Fabric} of network namespaces joined to a hub by veth
 * pairs, shaped by {@code tbf}, delayed by a {@link org.edgelab.link.kernel.DelayLine} process on a TUN device (this
 * machine's kernel has no {@code netem}), addresses in 198.18.0.0/15; {@link org.edgelab.link.kernel.KernelLink} is
 * its two-node case. Root and iproute2 are needed ({@link org.edgelab.link.kernel.KernelSupport}); JNA makes the
 * ioctl and setns calls.
 */
package org.edgelab.link.kernel;
