/**
 * Load clients: what sends each cell's measured load ({@code load.client}): {@code loadgen} (the default),
 * {@code wrk} and {@code wrk2}, behind one {@link org.edgelab.experiments.client.LoadClient} plugin
 * interface found through {@link org.edgelab.experiments.client.LoadClients}; their figures land in the same
 * results columns, empty where a client cannot say.
 */
package org.edgelab.experiments.client;
