/** Workload plugins: what the load generator requests in each cell ({@code objects}, {@code trace}, {@code video}). */
package org.edgelab.experiments.workload;
