/** The origin's Netty pipeline: initializer, request handler, response writer (pacing, faults, zero copy), ranges and conditionals. */
package org.edgelab.origin.server;
