package org.edgelab.storage.tier;

import java.util.Locale;

/** Which objects the memory tier takes in (setting {@code admit}). Immutable. */
public enum Admission {
    /** Every write and every disk hit is copied into memory. */
    ALWAYS("always"),
    /** An object enters memory on its second access (a write or a lookup counts as one). */
    SECOND_HIT("second-hit");

    private final String settingValue;

    Admission(String settingValue) {
        this.settingValue = settingValue;
    }

    /** Returns the value as written in settings. */
    public String settingValue() {
        return settingValue;
    }

    /** Parses {@code always} or {@code second-hit}. */
    public static Admission parse(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (Admission a : values()) {
            if (a.settingValue.equals(v)) {
                return a;
            }
        }
        throw new IllegalArgumentException("engine setting 'admit' must be always or second-hit, got '" + value + "'");
    }
}
