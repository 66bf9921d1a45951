package org.edgelab.storage.raw.log;

/**
 * One contiguous run of an object's body in the log: the segment slot and the generation that
 * slot had when the run was written, the payload's file offset and length, and the CRC32C of the
 * payload. Immutable.
 */
record Extent(int slot, long generation, long offset, long length, int crc) {
}
