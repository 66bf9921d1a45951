/** Consistent hashing shared by the tiers that spread keys over nodes: a cache's upstreams, a store's disks. */
package org.edgelab.hashing;
