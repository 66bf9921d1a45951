/**
 * The memory tier in front of any disk engine ({@code tiered}): writes go through to the disk
 * engine and, per the admission rule, to the {@code memory} engine; reads try memory first, then
 * disk, promoting disk hits into memory in the background. Large objects and sequential streams
 * can bypass memory, and sequential readers can be served from a read-ahead window.
 */
package org.edgelab.storage.tier;
