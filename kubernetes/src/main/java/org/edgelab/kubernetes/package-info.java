/**
 * The {@code kubernetes} target ({@link org.edgelab.kubernetes.KubernetesTarget}) and its settings; what it puts on a
 * cluster is in {@code manifest}, how it runs there in {@code cluster}, the worker pods' entry point in {@code worker}.
 */
package org.edgelab.kubernetes;
