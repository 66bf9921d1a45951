package org.edgelab.link.kernel;

/** A kernel link could not be made or used here; the message names the command or what is missing. */
public final class KernelLinkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    KernelLinkException(String message) {
        super(message);
    }

    KernelLinkException(String message, Throwable cause) {
        super(message, cause);
    }
}
