/**
 * HTTP semantics (RFC 9110) that EdgeLab's origin, cache server and load generator share: byte ranges
 * (with overlapping ranges coalesced), preconditions against a representation's validators, entity
 * tags, HTTP dates, multipart/byteranges framing, Content-Range, and delta-seconds with the Age field
 * (RFC 9111 §1.2.2, §5.1). Caching semantics (RFC 9111) are
 * the cache server's ({@code org.edgelab.cache.http}). Needs Netty on the class path (an optional
 * dependency of {@code common}).
 */
package org.edgelab.http;
