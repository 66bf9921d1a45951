package org.edgelab.link;

/**
 * What a link has carried since it was opened, counted where it is shaped: bytes on the wire (headers included)
 * and packets its queues dropped, in each direction. Immutable.
 *
 * @param bytesDown   bytes carried towards the client (responses)
 * @param bytesUp     bytes carried towards the server (requests)
 * @param droppedDown packets the shaper towards the client dropped (its queue was full)
 * @param droppedUp   packets the shaper towards the server dropped
 */
public record LinkCounters(long bytesDown, long bytesUp, long droppedDown, long droppedUp) {
    /** Nothing carried. */
    public static final LinkCounters ZERO = new LinkCounters(0, 0, 0, 0);

    /** What was carried between {@code earlier} and this. */
    public LinkCounters minus(LinkCounters earlier) {
        return new LinkCounters(bytesDown - earlier.bytesDown, bytesUp - earlier.bytesUp,
                droppedDown - earlier.droppedDown, droppedUp - earlier.droppedUp);
    }
}
