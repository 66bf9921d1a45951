/**
 * The client side towards the origin, or several upstreams: the consistent-hash ring that picks an
 * upstream per path and the health that skips one that is down ({@link org.edgelab.cache.origin.OriginClient}),
 * per-event-loop pools of keep-alive connections to each host, one exchange at a time per connection,
 * connect and response timeouts, and flow control of response bodies.
 */
package org.edgelab.cache.origin;
