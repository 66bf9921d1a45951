package org.edgelab.storage.eviction;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * S3-FIFO (Yang et al., SOSP '23): three FIFO queues. New keys enter a small queue S sized at
 * 10 % of the capacity in bytes; keys a ghost queue G remembers go straight to the main queue M.
 * Each key has a read counter capped at 3. Evicting from S (when S holds at least its share, or
 * M is empty) moves keys read since insertion to M and evicts the first unread one, remembering
 * it in G; evicting from M reinserts read keys with their counter decremented and evicts the
 * first with a zero counter. G keeps keys only, in FIFO order, up to as many bytes as M's share
 * (90 % of the capacity). One-hit wonders thus leave through S quickly.
 * Not thread-safe (see {@link EvictionPolicy}).
 */
public final class S3FifoPolicy<K> implements EvictionPolicy<K> {

    /** The plugin that creates {@link S3FifoPolicy} under the name {@code s3-fifo}. */
    public static final class Factory implements EvictionPolicyFactory {
        @Override
        public String name() {
            return "s3-fifo";
        }

        @Override
        public String description() {
            return "S3-FIFO (SOSP '23): small, main and ghost FIFO queues";
        }

        @Override
        public <K> EvictionPolicy<K> create(long capacityBytes) {
            return new S3FifoPolicy<>(capacityBytes);
        }
    }

    /** Share of the capacity the small queue may hold before evictions come from it. */
    static final double SMALL_SHARE = 0.10;
    private static final int MAX_FREQ = 3;

    private static final class Entry<K> {
        final K key;
        long size;
        int freq;
        boolean inMain;
        /** Position in its queue: stale queue slots with an older stamp are skipped. */
        long stamp;

        Entry(K key, long size) {
            this.key = key;
            this.size = size;
        }
    }

    private record Slot<K>(Entry<K> entry, long stamp) {
    }

    private final long smallTarget;
    private final long ghostBudget;
    private final Map<K, Entry<K>> entries = new HashMap<>();
    /** Queues hold slots; a slot is live while its entry is tracked, in that queue, with that stamp. */
    private final ArrayDeque<Slot<K>> small = new ArrayDeque<>();
    private final ArrayDeque<Slot<K>> main = new ArrayDeque<>();
    private final LinkedHashMap<K, Long> ghost = new LinkedHashMap<>();
    private long smallBytes;
    private long mainBytes;
    private long ghostBytes;
    private long nextStamp;
    private int smallCount;
    private int mainCount;

    /** Creates a policy for a store of {@code capacityBytes}. */
    public S3FifoPolicy(long capacityBytes) {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("capacity must be positive, got " + capacityBytes);
        }
        this.smallTarget = Math.max(1, (long) (capacityBytes * SMALL_SHARE));
        this.ghostBudget = Math.max(1, capacityBytes - smallTarget);
    }

    @Override
    public void onInsert(K key, long sizeBytes) {
        long size = Math.max(0, sizeBytes);
        Entry<K> e = entries.get(key);
        if (e != null) {
            // a new version of a tracked key: same place, new size
            if (e.inMain) {
                mainBytes += size - e.size;
            } else {
                smallBytes += size - e.size;
            }
            e.size = size;
            return;
        }
        e = new Entry<>(key, size);
        entries.put(key, e);
        Long ghostSize = ghost.remove(key);
        if (ghostSize != null) {
            ghostBytes -= ghostCost(ghostSize);
            pushMain(e);
        } else {
            pushSmall(e);
        }
    }

    @Override
    public void onAccess(K key) {
        Entry<K> e = entries.get(key);
        if (e != null && e.freq < MAX_FREQ) {
            e.freq++;
        }
    }

    @Override
    public void onRemove(K key) {
        Entry<K> e = entries.remove(key);
        if (e != null) {
            forget(e);
        } else {
            Long ghostSize = ghost.remove(key);
            if (ghostSize != null) {
                ghostBytes -= ghostCost(ghostSize);
            }
        }
    }

    @Override
    public K evict() {
        if (entries.isEmpty()) {
            return null;
        }
        if (smallCount > 0 && (smallBytes >= smallTarget || mainCount == 0)) {
            K victim = evictSmall();
            if (victim != null) {
                return victim;
            }
        }
        return evictMain();
    }

    /** Moves read keys from S to M; evicts (into G) the first unread one, or returns null if S empties. */
    private K evictSmall() {
        while (smallCount > 0) {
            Entry<K> e = pollLive(small, false);
            smallCount--;
            smallBytes -= e.size;
            if (e.freq > 0) {
                e.freq = 0;
                pushMain(e);
            } else {
                entries.remove(e.key);
                remember(e);
                return e.key;
            }
        }
        return null;
    }

    /** Reinserts read keys of M with a decremented counter; evicts the first with none. */
    private K evictMain() {
        while (true) {
            Entry<K> e = pollLive(main, true);
            mainCount--;
            mainBytes -= e.size;
            if (e.freq > 0) {
                e.freq--;
                pushMain(e);
            } else {
                entries.remove(e.key);
                return e.key;
            }
        }
    }

    private Entry<K> pollLive(ArrayDeque<Slot<K>> queue, boolean inMain) {
        while (true) {
            Slot<K> s = queue.pollFirst();
            Entry<K> e = s.entry();
            if (entries.get(e.key) == e && e.inMain == inMain && e.stamp == s.stamp()) {
                return e;
            }
        }
    }

    private void pushSmall(Entry<K> e) {
        e.inMain = false;
        e.stamp = nextStamp++;
        small.addLast(new Slot<>(e, e.stamp));
        smallCount++;
        smallBytes += e.size;
    }

    private void pushMain(Entry<K> e) {
        e.inMain = true;
        e.stamp = nextStamp++;
        main.addLast(new Slot<>(e, e.stamp));
        mainCount++;
        mainBytes += e.size;
    }

    /** Removes a tracked entry from its queue's accounting; its slot becomes stale. */
    private void forget(Entry<K> e) {
        if (e.inMain) {
            mainCount--;
            mainBytes -= e.size;
        } else {
            smallCount--;
            smallBytes -= e.size;
        }
        e.stamp = -1;
        compactIfStale();
    }

    private void remember(Entry<K> e) {
        ghost.put(e.key, e.size);
        ghostBytes += ghostCost(e.size);
        var it = ghost.entrySet().iterator();
        while (ghostBytes > ghostBudget && it.hasNext()) {
            ghostBytes -= ghostCost(it.next().getValue());
            it.remove();
        }
    }

    /** A ghost entry costs its object's size, and at least one byte so that empty objects are bounded too. */
    private static long ghostCost(long size) {
        return Math.max(1, size);
    }

    /** Drops stale slots when they outnumber live ones, so removals cannot grow the queues without bound. */
    private void compactIfStale() {
        if (small.size() > 2 * smallCount + 64) {
            small.removeIf(s -> s.entry().stamp != s.stamp() || s.entry().inMain || entries.get(s.entry().key) != s.entry());
        }
        if (main.size() > 2 * mainCount + 64) {
            main.removeIf(s -> s.entry().stamp != s.stamp() || !s.entry().inMain || entries.get(s.entry().key) != s.entry());
        }
    }

    @Override
    public int size() {
        return entries.size();
    }

    /** Returns whether {@code key} is tracked in the main queue (for tests). */
    boolean inMain(K key) {
        Entry<K> e = entries.get(key);
        return e != null && e.inMain;
    }

    /** Returns whether {@code key} is remembered in the ghost queue (for tests). */
    boolean inGhost(K key) {
        return ghost.containsKey(key);
    }
}
