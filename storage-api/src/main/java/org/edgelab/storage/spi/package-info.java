/**
 * Helpers for engine implementers, beside the contract in {@code org.edgelab.storage.api}: the
 * write-progress primitive that followers wait on ({@link org.edgelab.storage.spi.WriteProgress}),
 * the checks every stored object repeats ({@link org.edgelab.storage.spi.AbstractStoredObject}),
 * and the one place file-system errors are told apart. Callers of the contract never need them.
 */
package org.edgelab.storage.spi;
