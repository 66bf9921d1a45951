package org.edgelab.cache.server;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;
import java.util.Locale;

/**
 * The target URI of a request (RFC 9110 §7.1), validated once as it arrives: its scheme, its
 * authority (from an absolute-form target, which overrides Host as RFC 9112 §3.2.2 says, else from
 * the single Host field, else the origin's for HTTP/1.0) and the target in origin form. Everything
 * the cache derives from a request — its cache key, the Host it forwards to the origin in
 * X-Forwarded-Host, the targets it invalidates — comes from this one value, so no two requests
 * that reach different resources at the origin can share a key.
 *
 * <p>Rejected with a 400 (RFC 9112 §3.2): an HTTP/1.1 request without Host, more than one Host
 * line, a Host or absolute-form authority that is not {@code host [":" port]} of RFC 3986 (a path,
 * a query, userinfo, whitespace or controls, an empty host or label, a port that is not a number up
 * to 65535), schemes other than http and https, and targets in neither origin nor absolute form
 * (but {@code OPTIONS *}). Normalised as RFC 9110 §4.2.3 allows: scheme and host lower-cased, the
 * default port and an empty port dropped, a trailing dot of a name dropped (as nginx does), an
 * empty path made "/". The path and query are kept byte for byte: a proxy must not rewrite them
 * (RFC 9110 §7.7), and the key must name what the origin is asked for. Immutable and thread-safe.
 *
 * @param scheme     "http" or "https", lower-case
 * @param authority  the normalised authority, as forwarded to the origin
 * @param originForm the absolute path and query as the client sent them ("/" for an empty path; "*" for OPTIONS *)
 */
record RequestTarget(String scheme, String authority, String originForm) {

    /** What parsing a request gave: a target, or why the request is a 400 (exactly one is set). */
    record Parsed(RequestTarget target, String rejection) {
        static Parsed ok(RequestTarget t) {
            return new Parsed(t, null);
        }

        static Parsed bad(String why) {
            return new Parsed(null, why);
        }
    }

    /**
     * Validates the target and Host of {@code request}; {@code defaultAuthority} stands in for a
     * missing Host in HTTP/1.0 (the origin's authority).
     */
    static Parsed parse(HttpRequest request, String defaultAuthority) {
        List<String> hosts = request.headers().getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1) {
            return Parsed.bad("more than one Host header field (RFC 9112 section 3.2)");
        }
        String host = hosts.isEmpty() ? null : hosts.get(0);
        if (host == null && !HttpVersion.HTTP_1_0.equals(request.protocolVersion())) {
            return Parsed.bad("an HTTP/1.1 request without Host (RFC 9112 section 3.2)");
        }
        String hostAuthority = null;
        if (host != null) {
            hostAuthority = normaliseAuthority(host, "http");
            if (hostAuthority == null) {
                return Parsed.bad("invalid Host '" + printable(host) + "' (RFC 9112 section 3.2)");
            }
        }
        String uri = request.uri();
        if (uri.startsWith("/")) {
            return Parsed.ok(new RequestTarget("http", hostAuthority != null ? hostAuthority
                    : normaliseAuthority(defaultAuthority, "http"), uri));
        }
        if (uri.equals("*") && HttpMethod.OPTIONS.equals(request.method())) {
            return Parsed.ok(new RequestTarget("http", hostAuthority != null ? hostAuthority
                    : normaliseAuthority(defaultAuthority, "http"), uri));
        }
        int colon = uri.indexOf("://");
        if (colon <= 0) {
            return Parsed.bad("a request target in neither origin nor absolute form: '" + printable(uri) + "'");
        }
        String scheme = uri.substring(0, colon).toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Parsed.bad("the scheme '" + printable(scheme) + "' is not http or https");
        }
        int start = colon + 3;
        int end = start;
        while (end < uri.length() && "/?#".indexOf(uri.charAt(end)) < 0) {
            end++;
        }
        String authority = normaliseAuthority(uri.substring(start, end), scheme);
        if (authority == null) {
            return Parsed.bad("invalid authority in the request target '" + printable(uri) + "'");
        }
        String rest = uri.substring(end);
        String originForm = rest.isEmpty() || rest.charAt(0) != '/' ? "/" + rest : rest;
        return Parsed.ok(new RequestTarget(scheme, authority, originForm));
    }

    /**
     * Returns {@code value} as a normalised authority ({@code host [":" port]}, lower-case, without
     * a default or empty port or a name's trailing dot), or null when it is not a valid one.
     */
    static String normaliseAuthority(String value, String scheme) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        String host;
        String port;
        if (value.charAt(0) == '[') {
            int close = value.indexOf(']');
            if (close < 0 || !ipLiteral(value.substring(1, close))) {
                return null;
            }
            host = value.substring(0, close + 1);
            String after = value.substring(close + 1);
            if (!after.isEmpty() && after.charAt(0) != ':') {
                return null;
            }
            port = after.isEmpty() ? null : after.substring(1);
        } else {
            int colon = value.lastIndexOf(':');
            host = colon < 0 ? value : value.substring(0, colon);
            port = colon < 0 ? null : value.substring(colon + 1);
            if (!regName(host)) {
                return null;
            }
            if (host.length() > 1 && host.endsWith(".")) {
                host = host.substring(0, host.length() - 1);
            }
        }
        if (port != null && !port.isEmpty()) {
            if (port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int p = Integer.parseInt(port);
            if (p > 65535) {
                return null;
            }
            port = p == defaultPort(scheme) ? null : Integer.toString(p);
        }
        String lower = host.toLowerCase(Locale.ROOT);
        return port == null || port.isEmpty() ? lower : lower + ":" + port;
    }

    private static int defaultPort(String scheme) {
        return scheme.equals("https") ? 443 : 80;
    }

    /** A reg-name or IPv4 address of RFC 3986 (unreserved, pct-encoded, sub-delims), non-empty, without an empty label inside. */
    private static boolean regName(String s) {
        if (s.isEmpty() || s.equals(".") || s.contains("..")) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length() || !hex(s.charAt(i + 1)) || !hex(s.charAt(i + 2))) {
                    return false;
                }
                i += 2;
            } else if (!(alnum(c) || "-._~!$&'()*+,;=".indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }

    /** The inside of an IP-literal: an IPv6 address (hex digits, colons, dots) or an IPvFuture. */
    private static boolean ipLiteral(String s) {
        if (s.isEmpty()) {
            return false;
        }
        if (s.charAt(0) == 'v' || s.charAt(0) == 'V') {
            int dot = s.indexOf('.');
            if (dot < 2 || dot == s.length() - 1) {
                return false;
            }
            for (int i = 1; i < dot; i++) {
                if (!hex(s.charAt(i))) {
                    return false;
                }
            }
            for (int i = dot + 1; i < s.length(); i++) {
                char c = s.charAt(i);
                if (!(alnum(c) || "-._~!$&'()*+,;=:".indexOf(c) >= 0)) {
                    return false;
                }
            }
            return true;
        }
        if (s.indexOf(':') < 0) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(hex(c) || c == ':' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    private static boolean alnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    private static boolean hex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** The value with controls and non-ASCII escaped, for an error message. */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), 200));
        for (int i = 0; i < s.length() && b.length() < 200; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f) {
                b.append(String.format("\\x%02x", (int) c & 0xff));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** The target URI as the cache names it: scheme, "://", authority, then the origin-form target. */
    String uri() {
        return scheme + "://" + authority + originForm;
    }

    /**
     * Rewrites {@code request} in place to what the cache forwards: the origin-form target and one
     * Host field with the normalised authority (which the origin request carries in X-Forwarded-Host).
     */
    void applyTo(HttpRequest request) {
        request.setUri(originForm);
        request.headers().set(HttpHeaderNames.HOST, authority);
    }
}
