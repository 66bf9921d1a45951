/**
 * What the raw engines tell the kernel about how they read their files: {@link org.edgelab.storage.raw.io.ReadAhead}
 * (the {@code read-ahead} setting) over {@link org.edgelab.storage.raw.io.FileAdvice} ({@code posix_fadvise}).
 */
package org.edgelab.storage.raw.io;
