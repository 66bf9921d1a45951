/** The units EdgeLab reads and writes everywhere: byte sizes ({@code 100KB}, {@code 1MiB}) and durations ({@code 200ms}). */
package org.edgelab.units;
