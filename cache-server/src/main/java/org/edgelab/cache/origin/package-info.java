/**
 * The client side towards the origin: per-event-loop pools of keep-alive connections, one exchange
 * at a time per connection, connect and response timeouts, and flow control of response bodies.
 */
package org.edgelab.cache.origin;
