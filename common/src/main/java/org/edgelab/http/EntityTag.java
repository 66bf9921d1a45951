package org.edgelab.http;

import java.util.ArrayList;
import java.util.List;

/**
 * One entity tag (RFC 9110 §8.8.3): the opaque tag without its quotes, and whether it is weak.
 *
 * <p>A list (If-Match, If-None-Match) is read by the grammar: a member without quotes is not an entity
 * tag and is skipped, so a stray token can never match (a skipped If-None-Match member serves the
 * whole response, a skipped If-Match member fails the precondition: the safe side of each). A single
 * field value ({@link #parse}, e.g. a sloppy origin's {@code ETag: abc}) is read leniently: without
 * quotes, its text up to any comma is the opaque tag, so such an origin's validators still compare.
 * Immutable and thread-safe.
 *
 * @param weak   true for {@code W/"..."}
 * @param opaque the characters between the quotes
 */
public record EntityTag(boolean weak, String opaque) {

    /** Parses one entity tag such as {@code "abc"} or {@code W/"abc"} (leniently, see above); null when the value is null, blank or {@code *}. */
    public static EntityTag parse(String value) {
        if (value == null) {
            return null;
        }
        List<EntityTag> tags = new ArrayList<>(1);
        if (parseList(value, tags)) {
            return null;
        }
        return tags.isEmpty() ? lenient(value.trim()) : tags.get(0);
    }

    /**
     * Parses a comma-separated list of entity tags (as in If-None-Match) into {@code out}, skipping
     * members that are not entity tags; returns true when the list is {@code *}, leaving {@code out} empty.
     */
    public static boolean parseList(String value, List<EntityTag> out) {
        int i = 0;
        int n = value.length();
        while (i < n) {
            char c = value.charAt(i);
            if (c == ' ' || c == '\t' || c == ',') {
                i++;
                continue;
            }
            if (c == '*') {
                return true;
            }
            boolean weak = false;
            if ((c == 'W' || c == 'w') && i + 1 < n && value.charAt(i + 1) == '/') {
                weak = true;
                i += 2;
            }
            if (i < n && value.charAt(i) == '"') {
                int end = value.indexOf('"', i + 1);
                if (end < 0) {
                    return false; // an unterminated tag: nothing after it can be read
                }
                out.add(new EntityTag(weak, value.substring(i + 1, end)));
                i = end + 1;
            }
            // skip the rest of the member: junk after a tag, or a member that is no entity tag
            while (i < n && value.charAt(i) != ',') {
                i++;
            }
        }
        return false;
    }

    /** A field value that is no entity tag by the grammar, taken as its text up to any comma (without a leading quote). */
    private static EntityTag lenient(String value) {
        boolean weak = value.length() > 1 && (value.charAt(0) == 'W' || value.charAt(0) == 'w') && value.charAt(1) == '/';
        String rest = weak ? value.substring(2) : value;
        int comma = rest.indexOf(',');
        String opaque = (comma < 0 ? rest : rest.substring(0, comma)).trim();
        if (opaque.startsWith("\"")) {
            opaque = opaque.substring(1);
        }
        return opaque.isEmpty() ? null : new EntityTag(weak, opaque);
    }

    /** Strong comparison: both tags strong and their opaque tags equal (RFC 9110 §8.8.3.2). */
    public boolean strongMatch(EntityTag other) {
        return !weak && !other.weak && opaque.equals(other.opaque);
    }

    /** Weak comparison: opaque tags equal, weakness ignored (RFC 9110 §8.8.3.2). */
    public boolean weakMatch(EntityTag other) {
        return opaque.equals(other.opaque);
    }

    /** The tag as it appears in a header, e.g. {@code W/"abc"}. */
    @Override
    public String toString() {
        return (weak ? "W/\"" : "\"") + opaque + "\"";
    }
}
