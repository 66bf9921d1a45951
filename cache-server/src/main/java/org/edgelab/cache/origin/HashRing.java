package org.edgelab.cache.origin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.zip.CRC32C;

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

    /** Returns the index of the node that owns {@code key}. */
    public int owner(String key) {
        return owners[firstPoint(hash(key))];
    }

    /**
     * Returns every node's index once, in the order {@code key} tries them: its owner first, then the
     * next distinct nodes met walking the ring clockwise from its point.
     */
    public int[] preference(String key) {
        int count = nodes.size();
        int[] out = new int[count];
        boolean[] seen = new boolean[count];
        int found = 0;
        int p = firstPoint(hash(key));
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
        CRC32C crc = new CRC32C();
        crc.update(s.getBytes(StandardCharsets.UTF_8));
        long x = crc.getValue();
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }

    @Override
    public String toString() {
        return "HashRing" + new ArrayList<>(nodes) + " x " + points.length / nodes.size();
    }
}
