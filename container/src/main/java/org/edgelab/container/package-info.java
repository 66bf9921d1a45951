/**
 * The {@code container} target: EdgeLab's origin and cache server, each in its own container built
 * locally (no registry) from a {@code FROM scratch} image holding a jlink'd Java runtime, the shared
 * libraries it needs and the runner's own class path, run with Testcontainers on the host network,
 * with CPU and memory limits from the hardware assumptions.
 */
package org.edgelab.container;
