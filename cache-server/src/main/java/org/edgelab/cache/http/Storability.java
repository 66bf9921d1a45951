package org.edgelab.cache.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a shared cache may store a response (RFC 9111 §3 and §3.5).
 *
 * <p>A response is stored when all of these hold: the request method is GET (HEAD is answered
 * from a stored GET but its own responses are not stored); the status is final, not 206 (this
 * cache stores complete responses only: a 206 is passed through, see {@link Decision#partialContent()})
 * and not 304; with {@code must-understand} the status is one this cache understands (which
 * then overrides {@code no-store}); neither request nor response has {@code no-store}; the
 * response is not {@code private} (unqualified); a request with Authorization is answered by a
 * response with {@code public}, {@code s-maxage} or {@code must-revalidate}; and the response has
 * explicit freshness ({@code s-maxage}, {@code max-age}, Expires), is {@code public}, or has a
 * heuristically cacheable status (RFC 9110 §15.1).
 *
 * <p>Two choices of this cache go beyond the RFC, the way Varnish's built-in rules do: a response
 * with {@code Vary: *} is not stored (it could never be reused), and a response carrying
 * Set-Cookie is not stored unless the origin marked that field with {@code private="set-cookie"}
 * or {@code no-cache="set-cookie"} (then it is stored without it, see
 * {@link HopByHop#storedHeaders}), because a stored cookie would be replayed to every client.
 * Stateless and thread-safe.
 */
public final class Storability {

    /** Statuses whose responses may be reused with heuristic freshness (RFC 9110 §15.1). */
    public static final Set<Integer> HEURISTICALLY_CACHEABLE =
            Set.of(200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501);

    /** Final statuses whose semantics this cache understands (those defined by RFC 9110). */
    public static final Set<Integer> UNDERSTOOD = Set.of(
            200, 201, 202, 203, 204, 205, 206,
            300, 301, 302, 303, 304, 305, 307, 308,
            400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422,
            426, 500, 501, 502, 503, 504, 505);

    private Storability() {
    }

    /**
     * The verdict on one response.
     *
     * @param storable       true when the response may be stored and reused
     * @param reason         why, in a few words, for logs and debugging headers
     * @param partialContent true for a 206: never stored here, pass it to the client as it is
     */
    public record Decision(boolean storable, String reason, boolean partialContent) {

        static Decision store(String reason) {
            return new Decision(true, reason, false);
        }

        static Decision pass(String reason) {
            return new Decision(false, reason, false);
        }
    }

    /** Decides whether the response to this request may be stored by a shared cache. */
    public static Decision decide(HttpMethod method, HttpHeaders request, int status, HttpHeaders response) {
        if (!HttpMethod.GET.equals(method)) {
            return Decision.pass("method " + method + " is not cached");
        }
        if (status < 200 || status > 999) {
            return Decision.pass("status " + status + " is not final");
        }
        if (status == 206) {
            return new Decision(false, "206 partial content: only complete responses are stored", true);
        }
        if (status == 304) {
            return Decision.pass("304 refreshes a stored response, it is not stored itself");
        }
        CacheControl rsp = CacheControl.of(response);
        CacheControl req = CacheControl.of(request);
        boolean understood = UNDERSTOOD.contains(status);
        if (rsp.mustUnderstand() && !understood) {
            return Decision.pass("must-understand with status " + status + " this cache does not understand");
        }
        if (req.noStore()) {
            return Decision.pass("request has no-store");
        }
        if (rsp.noStore() && !(rsp.mustUnderstand() && understood)) {
            return Decision.pass("response has no-store");
        }
        if (rsp.isPrivate()) {
            return Decision.pass("response is private");
        }
        if (request.contains(HttpHeaderNames.AUTHORIZATION) && !rsp.allowsSharedCachingWithAuthorization()) {
            return Decision.pass("request has Authorization and response lacks public, s-maxage and must-revalidate");
        }
        Optional<List<String>> vary = VaryKeys.varyFields(response);
        if (vary.isEmpty()) {
            return Decision.pass("Vary: * never matches a later request");
        }
        if (response.contains(HttpHeaderNames.SET_COOKIE) && !cookieWithheld(rsp)) {
            return Decision.pass("response sets a cookie (store it only with private=\"set-cookie\")");
        }
        if (rsp.sMaxAge().isPresent()) {
            return Decision.store("explicit freshness (s-maxage)");
        }
        if (rsp.maxAge().isPresent()) {
            return Decision.store("explicit freshness (max-age)");
        }
        if (response.contains(HttpHeaderNames.EXPIRES)) {
            return Decision.store("explicit freshness (Expires)");
        }
        if (rsp.isPublic()) {
            return Decision.store("public");
        }
        if (HEURISTICALLY_CACHEABLE.contains(status)) {
            return Decision.store("heuristically cacheable status " + status);
        }
        return Decision.pass("status " + status + " without explicit freshness");
    }

    /**
     * True when a response with this status to a request with this method invalidates the stored
     * responses for the target URI (RFC 9111 §4.4): an unsafe method (anything but GET, HEAD,
     * OPTIONS and TRACE) answered with a non-error (2xx or 3xx) status.
     */
    public static boolean invalidates(HttpMethod method, int status) {
        boolean safe = HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method)
                || HttpMethod.OPTIONS.equals(method) || HttpMethod.TRACE.equals(method);
        return !safe && status >= 200 && status < 400;
    }

    /** True when heuristic freshness may be used for a response with this status and these directives (RFC 9111 §4.2.2). */
    public static boolean heuristicsAllowed(int status, CacheControl response) {
        return HEURISTICALLY_CACHEABLE.contains(status) || response.isPublic();
    }

    private static boolean cookieWithheld(CacheControl rsp) {
        String name = HttpHeaderNames.SET_COOKIE.toString().toLowerCase(Locale.ROOT);
        return rsp.privateFields().contains(name) || rsp.noCacheFields().contains(name);
    }
}
