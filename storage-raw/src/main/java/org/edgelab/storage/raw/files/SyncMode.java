package org.edgelab.storage.raw.files;

import java.util.Locale;

/** When {@code raw-files} forces written bytes to the device (setting {@code sync}). Immutable. */
public enum SyncMode {
    /** Never fsync: a commit survives a process crash (the page cache holds it), not a power loss. */
    NONE,
    /** fdatasync the object file before it is renamed into place. */
    DATA,
    /** fdatasync the file before the rename and fsync its directory after it: durable when commit returns. */
    FULL;

    /** Parses a setting value ({@code none}, {@code data} or {@code full}). */
    public static SyncMode parse(String value) {
        for (SyncMode m : values()) {
            if (m.name().equalsIgnoreCase(value.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("engine setting 'sync' must be none, data or full, got '" + value + "'");
    }

    /** Returns the setting value of this mode. */
    public String settingValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
