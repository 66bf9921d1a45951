/**
 * The runner's disk fixtures: separate file systems made for one cell and removed after it
 * ({@link org.edgelab.experiments.process.disk.CellDisks}, over storage-api's scratch file systems: ext4 on
 * loop devices, else tmpfs), and the real fault a disk-failure experiment injects into one of them while a
 * store serves from it ({@link org.edgelab.storage.disk.FileSystemShutdown}). Root only.
 */
package org.edgelab.experiments.process.disk;
