/**
 * What every storage engine is tested with, shipped in storage-api's test-jar:
 * {@link org.edgelab.storage.contract.ObjectStoreContract} (JUnit 5 tests and jqwik properties of
 * the {@link org.edgelab.storage.api.ObjectStore} contract; an engine's test extends it and
 * implements {@code openStore}), {@link org.edgelab.storage.contract.CrashHarness} (SIGKILL a child
 * JVM mid-write, then verify the reopened store), and the deterministic test bodies of
 * {@link org.edgelab.storage.contract.TestContent}.
 *
 * <p>Use from an engine module: depend on {@code org.edgelab:storage-api} with
 * {@code <type>test-jar</type>} and {@code <scope>test</scope>} (managed in the parent POM) and
 * on jqwik and JUnit with test scope.
 */
package org.edgelab.storage.contract;
