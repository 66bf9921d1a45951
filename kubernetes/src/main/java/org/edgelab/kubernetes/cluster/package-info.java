/**
 * Running a {@link org.edgelab.kubernetes.manifest.ClusterPlan} on a cluster through its API server:
 * {@link org.edgelab.kubernetes.cluster.ClusterRun} submits, watches, starts the workers together and collects their
 * reports.
 */
package org.edgelab.kubernetes.cluster;
