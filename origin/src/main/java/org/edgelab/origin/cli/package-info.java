/**
 * The {@code origin} command ({@code edgelab origin}, or {@code java -cp ... org.edgelab.origin.cli.OriginCommand}
 * in its own JVM).
 */
package org.edgelab.origin.cli;
