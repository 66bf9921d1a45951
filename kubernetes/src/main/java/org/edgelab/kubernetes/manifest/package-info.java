/**
 * What the kubernetes target puts on a cluster: a {@link org.edgelab.kubernetes.manifest.ClusterPlan} (origin, cache
 * {@link org.edgelab.kubernetes.manifest.Tier tiers}, workers) and {@link org.edgelab.kubernetes.manifest.Manifests},
 * which renders it as fabric8's typed objects and YAML.
 */
package org.edgelab.kubernetes.manifest;
