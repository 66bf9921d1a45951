/**
 * The load generator's Java API: {@link org.edgelab.loadgen.LoadConfig} (wrk's options plus open loop, bounds, workload and link emulation), {@link org.edgelab.loadgen.LoadRunner} and {@link org.edgelab.loadgen.LoadResult}.
 */
package org.edgelab.loadgen;
