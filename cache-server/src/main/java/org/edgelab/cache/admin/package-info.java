/**
 * The cache's counters ({@link org.edgelab.cache.admin.CacheStats}) and the loopback admin
 * listener's endpoints: {@code /stats} (JSON), {@code /metrics} (Prometheus text), {@code /health}.
 */
package org.edgelab.cache.admin;
