/**
 * The load worker as it runs in a pod of the kubernetes target's Indexed Job: {@link
 * org.edgelab.kubernetes.worker.WorkerMain} sends one segment of a {@link org.edgelab.kubernetes.worker.WorkerSpec}
 * and prints its report in the frame {@link org.edgelab.kubernetes.worker.WorkerLog} reads back.
 */
package org.edgelab.kubernetes.worker;
