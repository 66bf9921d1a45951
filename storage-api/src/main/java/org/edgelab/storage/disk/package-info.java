/**
 * File systems that EdgeLab mounts for itself, so that a store meets a real kernel: a small tmpfs, or
 * ext4 on a loop device over a sparse file ({@link org.edgelab.storage.disk.ScratchFileSystem}). Root
 * only ({@link org.edgelab.storage.disk.ScratchFileSystems#unavailableReason}); each one is named
 * {@code edgelab-fs-<pid>-<n>}, removed by its {@code close()} or a shutdown hook, and a later process
 * sweeps what a dead one left; {@link org.edgelab.storage.disk.FileSystemShutdown} fails an ext4 one for
 * real. Used by the engines' fault tests and by the experiment runner's disk fixtures.
 */
package org.edgelab.storage.disk;
