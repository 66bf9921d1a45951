package org.edgelab.cache.origin;

/**
 * Flow control over one origin response body in progress. Call from the connection's event loop
 * (the loop the listener runs on) or from any thread: calls are handed to that loop.
 */
public interface OriginExchange {

    /** Stops (false) or resumes (true) reading the body from the origin, for backpressure. */
    void setReading(boolean reading);

    /** Abandons the response: the connection is closed and the listener hears nothing more. */
    void abort();
}
