package org.edgelab.storage.api;

import java.util.Objects;

/** One stored response header field, name as received and value verbatim. Immutable. */
public record HeaderField(String name, String value) {
    public HeaderField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a header name cannot be empty");
        }
    }
}
