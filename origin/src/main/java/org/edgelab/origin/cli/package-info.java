/**
 * The {@code origin} command ({@code edgelab origin}, or {@code java -cp ... org.edgelab.origin.cli.OriginCommand}
 * in its own JVM) and what every EdgeLab command shares: unit converters and command-line set-up.
 */
package org.edgelab.origin.cli;
