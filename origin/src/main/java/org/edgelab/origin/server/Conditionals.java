package org.edgelab.origin.server;

import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * Evaluates the conditional request headers a GET or HEAD can carry (RFC 9110 section 13):
 * If-None-Match (weak comparison, lists, {@code *}), If-Modified-Since (only without
 * If-None-Match) and If-Range (strong comparison, or an exact date). Stateless and thread-safe.
 */
final class Conditionals {

    private Conditionals() {
    }

    /** True if the request's validators say the client's copy is current, so the answer is 304. */
    static boolean notModified(HttpHeaders request, String etag, long lastModifiedMillis) {
        String ifNoneMatch = request.get(HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch != null) {
            if (ifNoneMatch.trim().equals("*")) {
                return true;
            }
            String opaque = opaque(etag);
            for (String tag : entityTags(ifNoneMatch)) {
                if (opaque(tag).equals(opaque)) {
                    return true;
                }
            }
            return false;
        }
        String ifModifiedSince = request.get(HttpHeaderNames.IF_MODIFIED_SINCE);
        if (ifModifiedSince != null) {
            Date since = DateFormatter.parseHttpDate(ifModifiedSince);
            return since != null && lastModifiedMillis <= since.getTime();
        }
        return false;
    }

    /** True if a Range header should be honoured: no If-Range, or it matches the current representation. */
    static boolean ifRangeHolds(String ifRange, String etag, long lastModifiedMillis) {
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.trim();
        if (value.startsWith("\"") || value.startsWith("W/")) {
            return !value.startsWith("W/") && !etag.startsWith("W/") && value.equals(etag);
        }
        Date date = DateFormatter.parseHttpDate(value);
        return date != null && date.getTime() == lastModifiedMillis;
    }

    /** The entity tags in a comma-separated list, as written (with any {@code W/} prefix); malformed members are skipped. */
    static List<String> entityTags(String list) {
        List<String> tags = new ArrayList<>();
        int i = 0;
        int n = list.length();
        while (i < n) {
            char c = list.charAt(i);
            if (c == ' ' || c == '\t' || c == ',') {
                i++;
                continue;
            }
            int start = i;
            if (list.startsWith("W/", i)) {
                i += 2;
            }
            if (i < n && list.charAt(i) == '"') {
                int close = list.indexOf('"', i + 1);
                if (close < 0) {
                    break;
                }
                tags.add(list.substring(start, close + 1));
                i = close + 1;
            } else {
                int comma = list.indexOf(',', i);
                i = comma < 0 ? n : comma + 1; // not an entity tag: skip the member
            }
        }
        return tags;
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }
}
