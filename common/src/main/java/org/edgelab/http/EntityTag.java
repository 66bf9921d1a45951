package org.edgelab.cache.http;

import java.util.ArrayList;
import java.util.List;

/**
 * One entity tag (RFC 9110 §8.8.3): the opaque tag without its quotes, and whether it is weak.
 *
 * <p>Parsing is lenient: a tag without quotes is taken as the opaque text up to the next comma, so
 * a sloppy origin or client still compares sensibly. Immutable and thread-safe.
 *
 * @param weak   true for {@code W/"..."}
 * @param opaque the characters between the quotes
 */
public record EntityTag(boolean weak, String opaque) {

    /** Parses one entity tag such as {@code "abc"} or {@code W/"abc"}; null when the value is null or blank. */
    public static EntityTag parse(String value) {
        if (value == null) {
            return null;
        }
        List<EntityTag> tags = new ArrayList<>(1);
        parseList(value, tags);
        return tags.isEmpty() ? null : tags.get(0);
    }

    /**
     * Parses a comma-separated list of entity tags (as in If-None-Match); returns true when the
     * list is {@code *}, leaving {@code out} empty.
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
                    end = n;
                }
                out.add(new EntityTag(weak, value.substring(i + 1, end)));
                i = end + 1;
            } else {
                int end = value.indexOf(',', i);
                if (end < 0) {
                    end = n;
                }
                String opaque = value.substring(i, end).trim();
                if (!opaque.isEmpty()) {
                    out.add(new EntityTag(weak, opaque));
                }
                i = end;
            }
            // skip junk up to the next comma
            while (i < n && value.charAt(i) != ',') {
                i++;
            }
        }
        return false;
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
