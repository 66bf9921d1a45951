/**
 * Experiment kinds that put one event into a measured run and follow it per second ({@code series.csv}): {@code restart}
 * (the server SIGKILLed mid-run and started again on the same store) and {@code churn} (many times the store's capacity
 * of never-seen objects written through it, then the steady state against the same store fresh).
 */
package org.edgelab.experiments.events;
