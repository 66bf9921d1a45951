package org.edgelab.loadgen.measure;

/** The classes a failed request is counted under; one meaning everywhere (see the design brief). */
public enum ErrorClass {
    /** The TCP connection could not be established. */
    CONNECT("connect"),
    /** No complete response within the configured timeout. */
    TIMEOUT("timeout"),
    /** The server answered with a 4xx status. */
    STATUS_4XX("status_4xx"),
    /** The server answered with a 5xx status (or another non-2xx/3xx status). */
    STATUS_5XX("status_5xx"),
    /** The response headers arrived but the body ended before its declared or expected length. */
    TRUNCATED("truncated"),
    /** The connection closed (or reset) before any response header arrived. */
    CLOSED("closed"),
    /** A body byte, the length or the Content-Range differed from what the origin would have sent. */
    INTEGRITY("integrity"),
    /** The request could not be written: the connection failed while sending it. */
    WRITE("write");

    private final String label;

    ErrorClass(String label) {
        this.label = label;
    }

    /** The lower-case label used in summaries, CSV and JSON. */
    public String label() {
        return label;
    }
}
