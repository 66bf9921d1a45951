/**
 * The {@code serve} command: {@code edgelab serve}, or {@code java -cp ... org.edgelab.cache.cli.ServeCommand}
 * to run the cache in its own JVM.
 */
package org.edgelab.cache.cli;
