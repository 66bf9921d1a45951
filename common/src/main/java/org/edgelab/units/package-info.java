/** The units EdgeLab reads and writes everywhere: byte sizes ({@code 100KB}, {@code 1MiB}),
 * durations ({@code 200ms}), and figures rounded to
 * significant digits. */
package org.edgelab.units;
