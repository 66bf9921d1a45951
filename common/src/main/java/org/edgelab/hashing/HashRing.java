package org.edgelab.hashing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

/**
 * A consistent-hash ring over named nodes, each placed at {@code virtualNodes} points (as nginx's
 * {@code hash ... consistent} and ketama place 160 per server): a key belongs to the first point at or
 * after its hash, and the nodes after it in ring order are where it goes when that node is down. Adding
 * or removing a node moves only the keys of the points it gains or loses, about 1/N of them. Node
 * positions depend on the names alone, so every ring built from the same names agrees. Immutable and
 * thread-safe; no call blocks.
 */
public final class HashRing {

    /** The points each node gets when not told otherwise (nginx's and ketama's 160). */
    public static final int DEFAULT_VIRTUAL_NODES = 160;

    /** CRC-32C (Castagnoli, reflected 0x82F63B78) of each byte value. */
    private static final int[] CRC32C_TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
            }
            CRC32C_TABLE[i] = c;
        }
    }

    private final List<String> nodes;
    private final long[] points;
    private final int[] owners;

    /**
     * Builds the ring of {@code nodes} (distinct, at least one) with {@code virtualNodes} points each.
     *
     * @throws IllegalArgumentException for no node, a repeated name, or fewer than one point per node
     */
    public HashRing(List<String> nodes, int virtualNodes) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a hash ring needs at least one node");
        }
        if (virtualNodes < 1 || virtualNodes > 10_000) {
            throw new IllegalArgumentException("virtual nodes per upstream must be in [1, 10000], got " + virtualNodes);
        }
        if (new HashSet<>(nodes).size() != nodes.size()) {
            throw new IllegalArgumentException("a hash ring's nodes must be distinct, got " + nodes);
        }
        this.nodes = List.copyOf(nodes);
        int n = nodes.size() * virtualNodes;
        long[] packed = new long[n];
        long[] pos = new long[n];
        int[] own = new int[n];
        int i = 0;
        for (int node = 0; node < nodes.size(); node++) {
            for (int v = 0; v < virtualNodes; v++) {
                pos[i] = hash(nodes.get(node) + "-" + v);
                own[i] = node;
                i++;
            }
        }
        // sort the points by (position, owner) so that equal positions order the same in every ring
        Integer[] order = new Integer[n];
        for (int k = 0; k < n; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compareUnsigned(pos[a], pos[b]);
            return c != 0 ? c : nodes.get(own[a]).compareTo(nodes.get(own[b]));
        });
        int[] sortedOwners = new int[n];
        for (int k = 0; k < n; k++) {
            packed[k] = pos[order[k]];
            sortedOwners[k] = own[order[k]];
        }
        this.points = packed;
        this.owners = sortedOwners;
    }

    /** Returns the nodes' names, in the order given (a node's index is its position here). */
    public List<String> nodes() {
        return nodes;
    }

    /** Returns the index of the node that owns {@code key}: the same as {@link #first(String)}. */
    public int owner(String key) {
        return first(key);
    }

    /**
     * Returns the index of the first node {@code key} tries, its owner: {@code preference(key)[0]}, found
     * without allocating (a request's first attempt; the whole preference is only needed on a failure).
     */
    public int first(String key) {
        return first(key, 0, key.length());
    }

    /** Returns {@link #first(String)} of the characters {@code [from, to)} of {@code chars}, without copying them. */
    public int first(CharSequence chars, int from, int to) {
        return owners[firstPoint(hash(chars, from, to))];
    }

    /**
     * Returns every node's index once, in the order {@code key} tries them: its owner first, then the
     * next distinct nodes met walking the ring clockwise from its point.
     */
    public int[] preference(String key) {
        return preferenceAt(hash(key));
    }

    /**
     * Returns the index of the node that owns a key already hashed to 64 bits by its caller (a store's own key
     * hash, FNV-1a for one), without allocating. The hash is spread first, so a weak one places keys evenly too.
     */
    public int firstOfHash(long keyHash) {
        return owners[firstPoint(spread(keyHash))];
    }

    /** Returns {@link #preference(String)} of a key already hashed to 64 bits by its caller, as {@link #firstOfHash}. */
    public int[] preferenceOfHash(long keyHash) {
        return preferenceAt(spread(keyHash));
    }

    private int[] preferenceAt(long position) {
        int count = nodes.size();
        int[] out = new int[count];
        boolean[] seen = new boolean[count];
        int found = 0;
        int p = firstPoint(position);
        for (int step = 0; step < points.length && found < count; step++) {
            int owner = owners[(p + step) % points.length];
            if (!seen[owner]) {
                seen[owner] = true;
                out[found++] = owner;
            }
        }
        return out;
    }

    /** The index of the first point at or after {@code h}, wrapping around to the first point. */
    private int firstPoint(long h) {
        int lo = 0;
        int hi = points.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(points[mid], h) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == points.length ? 0 : lo;
    }

    /** CRC-32C of the UTF-8 bytes (as nginx hashes with CRC-32), spread over 64 bits by MurmurHash3's finaliser. */
    static long hash(String s) {
        return hash(s, 0, s.length());
    }

    /**
     * {@link #hash(String)} of {@code [from, to)} of {@code s}, encoding to UTF-8 on the fly as
     * {@link String#getBytes} does (an unpaired surrogate is {@code '?'}), so nothing is allocated.
     */
    static long hash(CharSequence s, int from, int to) {
        int crc = -1;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                crc = crc32c(crc, c);
            } else if (c < 0x800) {
                crc = crc32c(crc, 0xC0 | c >> 6);
                crc = crc32c(crc, 0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                crc = crc32c(crc, 0xE0 | c >> 12);
                crc = crc32c(crc, 0x80 | c >> 6 & 0x3F);
                crc = crc32c(crc, 0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                crc = crc32c(crc, 0xF0 | cp >> 18);
                crc = crc32c(crc, 0x80 | cp >> 12 & 0x3F);
                crc = crc32c(crc, 0x80 | cp >> 6 & 0x3F);
                crc = crc32c(crc, 0x80 | cp & 0x3F);
            } else {
                crc = crc32c(crc, '?');
            }
        }
        return spread(~crc & 0xFFFF_FFFFL);
    }

    /** MurmurHash3's 64-bit finaliser: every input bit moves every output bit. */
    private static long spread(long h) {
        long x = h;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }

    private static int crc32c(int crc, int b) {
        return crc >>> 8 ^ CRC32C_TABLE[(crc ^ b) & 0xFF];
    }

    @Override
    public String toString() {
        return "HashRing" + new ArrayList<>(nodes) + " x " + points.length / nodes.size();
    }
}
