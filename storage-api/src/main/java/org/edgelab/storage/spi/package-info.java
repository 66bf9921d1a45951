/**
 * Helpers for engine implementers, beside the contract in {@code org.edgelab.storage.api}: the
 * write-progress primitive that followers wait on ({@link org.edgelab.storage.spi.WriteProgress}),
 * the checks every stored object repeats ({@link org.edgelab.storage.spi.AbstractStoredObject}),
 * the one place file-system errors are told apart, and the recency file by which a restarted disk
 * store orders its eviction policy by last use ({@link org.edgelab.storage.spi.RecencyFile}).
 * Callers of the contract never need them.
 */
package org.edgelab.storage.spi;
