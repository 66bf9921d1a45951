/**
 * What every EdgeLab command line shares, whichever module its command lives in: the picocli set-up
 * ({@code --config FILE} defaults, exit statuses, error lines) and converters for sizes and durations.
 * Needs picocli on the class path (an optional dependency of {@code common}).
 */
package org.edgelab.commandline;
