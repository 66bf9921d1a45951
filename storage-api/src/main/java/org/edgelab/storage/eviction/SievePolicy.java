package org.edgelab.storage.eviction;

import java.util.HashMap;
import java.util.Map;

/**
 * SIEVE (Zhang et al., NSDI '24): one FIFO queue of keys, new keys at the head, a visited bit per
 * key set by reads, and a hand that moves from the tail towards the head, clearing visited bits,
 * and evicts the first unvisited key it finds; the hand stays where it stopped. Hot keys stay in
 * place (no reordering on a hit), so a read costs one bit. Inserting a tracked key again counts
 * as a read. Not thread-safe (see {@link EvictionPolicy}).
 */
public final class SievePolicy<K> implements EvictionPolicy<K> {

    /** The plugin that creates {@link SievePolicy} under the name {@code sieve}. */
    public static final class Factory implements EvictionPolicyFactory {
        @Override
        public String name() {
            return "sieve";
        }

        @Override
        public String description() {
            return "SIEVE (NSDI '24): FIFO with visited bits and a moving hand";
        }

        @Override
        public <K> EvictionPolicy<K> create(long capacityBytes) {
            return new SievePolicy<>();
        }
    }

    private static final class Node<K> {
        final K key;
        boolean visited;
        /** Towards the head (newer). */
        Node<K> newer;
        /** Towards the tail (older). */
        Node<K> older;

        Node(K key) {
            this.key = key;
        }
    }

    private final Map<K, Node<K>> nodes = new HashMap<>();
    private Node<K> head;
    private Node<K> tail;
    private Node<K> hand;

    @Override
    public void onInsert(K key, long sizeBytes) {
        Node<K> existing = nodes.get(key);
        if (existing != null) {
            existing.visited = true;
            return;
        }
        Node<K> n = new Node<>(key);
        nodes.put(key, n);
        n.older = head;
        if (head != null) {
            head.newer = n;
        }
        head = n;
        if (tail == null) {
            tail = n;
        }
    }

    @Override
    public void onAccess(K key) {
        Node<K> n = nodes.get(key);
        if (n != null) {
            n.visited = true;
        }
    }

    @Override
    public void onRemove(K key) {
        Node<K> n = nodes.remove(key);
        if (n != null) {
            unlink(n);
        }
    }

    @Override
    public K evict() {
        if (tail == null) {
            return null;
        }
        Node<K> n = hand != null ? hand : tail;
        while (n.visited) {
            n.visited = false;
            n = n.newer != null ? n.newer : tail;
        }
        Node<K> next = n.newer;
        nodes.remove(n.key);
        unlink(n);
        hand = next;
        return n.key;
    }

    /** Unlinks {@code n}; a hand pointing at it moves on towards the head. */
    private void unlink(Node<K> n) {
        if (hand == n) {
            hand = n.newer;
        }
        if (n.newer != null) {
            n.newer.older = n.older;
        } else {
            head = n.older;
        }
        if (n.older != null) {
            n.older.newer = n.newer;
        } else {
            tail = n.newer;
        }
        n.newer = null;
        n.older = null;
    }

    @Override
    public int size() {
        return nodes.size();
    }
}
