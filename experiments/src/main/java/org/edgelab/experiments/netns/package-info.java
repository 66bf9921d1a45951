/**
 * The {@code netns} target: a topology (load workers, cache tiers, the origin) run for real on one machine, every node in
 * a network namespace of its own joined by veth pairs through the links module's kernel {@code Fabric}, addresses in
 * 198.18.0.0/15, the namespaces removed after the cell; the workers start at one barrier and their results are merged.
 */
package org.edgelab.experiments.netns;
