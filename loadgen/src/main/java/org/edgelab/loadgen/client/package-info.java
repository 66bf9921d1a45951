/**
 * Netty client side: event loops (epoll when available), keep-alive connections that stream, verify and time responses, user-space link emulation.
 */
package org.edgelab.loadgen.client;
