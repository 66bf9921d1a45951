/**
 * Child processes the runner supervises (EdgeLab servers in their own JVMs, peers such as Varnish):
 * start with logs in a folder, wait until they answer, read their CPU time from {@code /proc}, stop
 * them and their descendants, also after a failure.
 */
package org.edgelab.experiments.process;
