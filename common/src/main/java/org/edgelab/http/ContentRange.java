package org.edgelab.loadgen.client;

/** Parses {@code Content-Range: bytes START-END/TOTAL}; stateless and thread-safe. */
final class ContentRange {
    private ContentRange() {
    }

    /** {start, end, total} with total -1 for '*', or null when the value is missing or malformed. */
    static long[] parse(String value) {
        if (value == null || !value.regionMatches(true, 0, "bytes ", 0, 6)) {
            return null;
        }
        int dash = value.indexOf('-', 6);
        int slash = value.indexOf('/', dash + 1);
        if (dash < 0 || slash < 0) {
            return null;
        }
        try {
            long start = Long.parseLong(value, 6, dash, 10);
            long end = Long.parseLong(value, dash + 1, slash, 10);
            String total = value.substring(slash + 1).trim();
            long size = total.equals("*") ? -1 : Long.parseLong(total);
            return end < start ? null : new long[] {start, end, size};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
