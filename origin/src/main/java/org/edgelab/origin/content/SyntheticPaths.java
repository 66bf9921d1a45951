package org.edgelab.origin.content;

import java.util.Optional;
import java.util.regex.Pattern;
import org.edgelab.units.ByteSize;

/**
 * The URL layout of synthetic objects, {@code /objects/{size}/{id}}: size in bytes or a
 * {@link ByteSize} form ({@code 100KB}, {@code 10MiB}), id matching {@code [A-Za-z0-9._-]{1,200}},
 * optionally followed by a query (fault parameters). Stateless and thread-safe.
 */
public final class SyntheticPaths {

    /** The path prefix every synthetic object's path starts with. */
    public static final String PREFIX = "/objects/";

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Pattern SIZE = Pattern.compile("[0-9]+(?:\\.[0-9]+)?[A-Za-z]*");

    private SyntheticPaths() {
    }

    /** A synthetic object named by a URL: its id and its size in bytes. */
    public record SyntheticObject(String id, long size) {
        /** Validates the id's form and that the size is not negative. */
        public SyntheticObject {
            if (id == null || !ID.matcher(id).matches()) {
                throw new IllegalArgumentException("object id '" + id + "' must match [A-Za-z0-9._-]{1,200}");
            }
            if (size < 0) {
                throw new IllegalArgumentException("negative object size " + size);
            }
        }

        /** This object's path, {@code /objects/{size}/{id}}. */
        public String path() {
            return SyntheticPaths.path(id, size);
        }
    }

    /** The path of object {@code id} of {@code size} bytes: {@code /objects/{size}/{id}}. */
    public static String path(String id, long size) {
        SyntheticObject valid = new SyntheticObject(id, size);
        return PREFIX + valid.size() + "/" + valid.id();
    }

    /** Parses a path (with or without a query) into the object it names; empty if it names none. */
    public static Optional<SyntheticObject> parse(String pathWithOptionalQuery) {
        if (pathWithOptionalQuery == null) {
            return Optional.empty();
        }
        String path = pathWithOptionalQuery;
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        int fragment = path.indexOf('#');
        if (fragment >= 0) {
            path = path.substring(0, fragment);
        }
        if (!path.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String rest = path.substring(PREFIX.length());
        int slash = rest.indexOf('/');
        if (slash <= 0) {
            return Optional.empty();
        }
        String sizeText = rest.substring(0, slash);
        String id = rest.substring(slash + 1);
        if (!SIZE.matcher(sizeText).matches() || !ID.matcher(id).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SyntheticObject(id, ByteSize.parse(sizeText)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
