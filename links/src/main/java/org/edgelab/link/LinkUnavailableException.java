package org.edgelab.link;

/** A link cannot be emulated as asked on this machine; the message names what is missing and how to proceed. */
public final class LinkUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** With {@code message} naming what is missing. */
    public LinkUnavailableException(String message) {
        super(message);
    }
}
