/**
 * The {@code disk-failure} experiment kind (issue 16 item 2): a store over several file systems made for the cell,
 * one failed for real under load and healed, and a separate phase on a file system too small for the store.
 */
package org.edgelab.experiments.disk;
