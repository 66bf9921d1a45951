package org.edgelab.loadgen.client;

import io.netty.buffer.ByteBuf;
import org.edgelab.http.ContentRange;
import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.workload.RequestSlot;
import org.edgelab.origin.content.ContentVerifier;

/**
 * Checks one streamed response against the request that asked for it: status class, Content-Length,
 * Content-Range (for 206), X-Cache, and every body byte of a synthetic object with the origin's
 * {@link ContentVerifier}, starting at the range's offset. Bodies are never kept. Reused for every
 * response of one connection.
 *
 * <p>Not thread-safe: confined to its connection's event loop.
 */
final class ResponseCheck {
    private boolean failed;
    private boolean keepAlive;
    private boolean hasXCache;
    private boolean hit;
    private int status;
    private long bodyReceived;
    private long expectedBody;
    private ContentVerifier verifier;

    /** Starts checking the response to {@code slot} from its parsed head; {@code verify} enables byte verification. */
    void onHead(int status, boolean keepAlive, long contentLength, String xCache, String contentRange,
                RequestSlot slot, boolean verify) {
        failed = false;
        bodyReceived = 0;
        verifier = null;
        this.status = status;
        this.keepAlive = keepAlive;
        hasXCache = xCache != null;
        hit = xCache != null && xCache.regionMatches(true, 0, "HIT", 0, 3);
        expectedBody = contentLength;
        if (status < 200 || status >= 300) {
            return;
        }
        long offset = 0;
        if (status == 206) {
            if (slot.rangeStart < 0) {
                failed = true; // a range nobody asked for
                return;
            }
            ContentRange r = ContentRange.parse(contentRange).orElse(null);
            long wantedEnd = slot.objectSize >= 0 ? Math.min(slot.rangeEnd, slot.objectSize - 1) : slot.rangeEnd;
            if (r == null || r.first() != slot.rangeStart || r.last() != wantedEnd
                    || (slot.objectSize >= 0 && r.completeLength() >= 0 && r.completeLength() != slot.objectSize)) {
                failed = true;
                return;
            }
            offset = r.first();
            long length = r.length();
            if (contentLength >= 0 && contentLength != length) {
                failed = true;
                return;
            }
            expectedBody = length;
        } else if (slot.objectSize >= 0) {
            if (contentLength >= 0 && contentLength != slot.objectSize) {
                failed = true;
                return;
            }
            expectedBody = slot.objectSize;
        }
        if (verify && slot.syntheticId != null) {
            verifier = new ContentVerifier(slot.syntheticId, offset);
        }
    }

    /** Checks the next body bytes (read without consuming); returns their count. */
    int onBody(ByteBuf content) {
        int n = content.readableBytes();
        if (n == 0) {
            return 0;
        }
        bodyReceived += n;
        if (verifier != null && !failed) {
            if (expectedBody >= 0 && bodyReceived > expectedBody) {
                failed = true;
            } else if (!verifier.update(content)) {
                failed = true;
            }
        }
        return n;
    }

    /** Marks the response as malformed (a decoder failure). */
    void fail() {
        failed = true;
    }

    /** The verdict once the body ended: null when the response is good, else its error class. */
    ErrorClass verdict() {
        verifier = null;
        int statusClass = status / 100;
        if (statusClass == 2) {
            if (!failed && expectedBody >= 0 && bodyReceived < expectedBody) {
                return ErrorClass.TRUNCATED;
            }
            if (failed || (expectedBody >= 0 && bodyReceived > expectedBody)) {
                return ErrorClass.INTEGRITY;
            }
            return null;
        }
        if (statusClass == 3) {
            return null;
        }
        return statusClass == 4 ? ErrorClass.STATUS_4XX : ErrorClass.STATUS_5XX;
    }

    int status() {
        return status;
    }

    boolean keepAlive() {
        return keepAlive;
    }

    boolean hasXCache() {
        return hasXCache;
    }

    boolean hit() {
        return hit;
    }

    long bodyReceived() {
        return bodyReceived;
    }
}
