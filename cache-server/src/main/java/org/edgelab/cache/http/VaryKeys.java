package org.edgelab.cache.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import org.edgelab.storage.api.ObjectMetadata;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Selects stored variants by the request fields a response's Vary names (RFC 9111 §4.1).
 *
 * <p>{@link #varyFields} gives the nominated field names lower-cased, de-duplicated and sorted, an
 * empty list when there is no Vary, and an empty {@code Optional} for {@code Vary: *}, which no
 * later request matches (such a response is never stored, see {@link Storability}).
 * {@link #secondaryKey} turns a request into a string that is equal for two requests exactly when
 * their nominated fields are equal after normalisation: repeated field lines are combined, list
 * members are trimmed and re-joined with {@code ", "}, runs of whitespace collapse to one space, and
 * the values of Accept-Encoding and Accept-Language (case-insensitive by definition) are lower-cased.
 * An absent field differs from an empty one. Stateless and thread-safe.
 */
public final class VaryKeys {

    private static final Set<String> CASE_INSENSITIVE_VALUES = Set.of("accept-encoding", "accept-language");

    private VaryKeys() {
    }

    /** Returns the fields a stored response varies on; empty Optional for {@code Vary: *}. */
    public static Optional<List<String>> varyFields(ObjectMetadata stored) {
        return fields(stored.headers("Vary"));
    }

    /** Returns the fields a response varies on; empty Optional for {@code Vary: *}. */
    public static Optional<List<String>> varyFields(HttpHeaders response) {
        return fields(response.getAll(HttpHeaderNames.VARY));
    }

    private static Optional<List<String>> fields(List<String> varyValues) {
        TreeSet<String> names = new TreeSet<>();
        for (String value : varyValues) {
            for (String member : value.split(",")) {
                String name = member.trim().toLowerCase(Locale.ROOT);
                if (name.equals("*")) {
                    return Optional.empty();
                }
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return Optional.of(List.copyOf(names));
    }

    /**
     * Returns the key of the variant this request selects among responses varying on {@code fields}
     * ("" for no fields). Fields should come from {@link #varyFields}.
     */
    public static String secondaryKey(List<String> fields, HttpHeaders request) {
        StringBuilder key = new StringBuilder();
        for (String field : fields) {
            String name = field.toLowerCase(Locale.ROOT);
            if (key.length() > 0) {
                key.append('\n');
            }
            key.append(name);
            List<String> values = request.getAll(name);
            if (values.isEmpty()) {
                continue; // absent: just the name, which no present value can produce
            }
            key.append('=').append(normalise(name, values));
        }
        return key.toString();
    }

    private static String normalise(String name, List<String> values) {
        StringBuilder out = new StringBuilder();
        for (String line : values) {
            for (String member : line.split(",", -1)) {
                String m = collapseWhitespace(member);
                if (m.isEmpty()) {
                    continue;
                }
                if (out.length() > 0) {
                    out.append(", ");
                }
                out.append(CASE_INSENSITIVE_VALUES.contains(name) ? m.toLowerCase(Locale.ROOT) : m);
            }
        }
        return out.toString();
    }

    private static String collapseWhitespace(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean pendingSpace = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t') {
                pendingSpace = out.length() > 0;
            } else {
                if (pendingSpace) {
                    out.append(' ');
                    pendingSpace = false;
                }
                out.append(c);
            }
        }
        return out.toString();
    }
}
