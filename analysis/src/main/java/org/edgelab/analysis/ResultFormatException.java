package org.edgelab.analysis;

/**
 * A result folder or file that cannot be analysed: the message names the file and what is wrong with it.
 *
 * <p>Thread-safety: immutable.
 */
public final class ResultFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming the file and the problem. */
    public ResultFormatException(String message) {
        super(message);
    }

    /** Creates the exception with a message naming the file and the problem, and its cause. */
    public ResultFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
