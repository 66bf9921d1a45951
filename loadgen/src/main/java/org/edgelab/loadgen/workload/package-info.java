/**
 * What a run requests: a fixed URL, synthetic objects by popularity and size (with hit-ratio targeting and ranges), or a replayed CSV trace.
 */
package org.edgelab.loadgen.workload;
