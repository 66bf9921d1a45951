/**
 * What the raw engines tell the kernel about how they read their files: {@link org.edgelab.storage.raw.io.ReadAhead}
 * (the {@code read-ahead} setting) over {@link org.edgelab.storage.raw.io.FileAdvice} ({@code posix_fadvise}), and
 * how a reused file region gets fresh pages: {@link org.edgelab.storage.raw.io.FileSpace} ({@code fallocate}).
 */
package org.edgelab.storage.raw.io;
