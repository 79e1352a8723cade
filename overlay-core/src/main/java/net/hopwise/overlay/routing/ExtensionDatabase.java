package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import net.hopwise.overlay.NodeId;

/**
 * The newest extension record of every (origin, kind) a node knows, withdrawals included, each with
 * age 0 beside the local estimate of when its origin created it; every entry, the owner's too,
 * expires maxAge after that moment (the owner refreshes its live records before). Apart from
 * {@link LinkStateDatabase} because records never move routes and are collected per origin in bulk.
 */
final class ExtensionDatabase {
    /** Which record: sorted by origin, then kind, so one origin's records are one range. */
    record Key(NodeId origin, int kind) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = origin.compareTo(o.origin);
            return c != 0 ? c : Integer.compare(kind, o.kind);
        }
    }

    private record Expiry(long atNanos, Key key) implements Comparable<Expiry> {
        @Override
        public int compareTo(Expiry o) {
            int c = Long.compare(atNanos, o.atNanos);
            return c != 0 ? c : key.compareTo(o.key);
        }
    }

    private final long maxAgeNanos;
    private final TreeMap<Key, ExtensionRecord> records = new TreeMap<>();
    private final Map<Key, Long> originatedAtNanos = new HashMap<>();
    private final TreeSet<Expiry> expiries = new TreeSet<>();
    private final Map<NodeId, Integer> perOrigin = new HashMap<>();

    ExtensionDatabase(long maxAgeNanos) {
        this.maxAgeNanos = maxAgeNanos;
    }

    ExtensionRecord current(Key key) {
        return records.get(key);
    }

    /** When the held version of {@code key} was created; the key must be held. */
    long originatedAtNanos(Key key) {
        return originatedAtNanos.get(key);
    }

    /** Entries held for {@code origin}, withdrawals included. */
    int count(NodeId origin) {
        return perOrigin.getOrDefault(origin, 0);
    }

    /** Every key held, in order. */
    Collection<Key> keys() {
        return records.keySet();
    }

    /** The entries of one origin, in kind order (a live view). */
    Collection<ExtensionRecord> of(NodeId origin) {
        return range(origin).values();
    }

    /** Every live (not withdrawn) record of {@code kind}, in origin order. */
    List<ExtensionRecord> live(int kind) {
        List<ExtensionRecord> live = new ArrayList<>();
        for (ExtensionRecord r : records.values()) {
            if (r.kind() == kind && r.data() != null) {
                live.add(r);
            }
        }
        return live;
    }

    /** Replaces the entry of {@code r}'s key with {@code r}; returns the one replaced, or null. */
    ExtensionRecord install(ExtensionRecord r, long originatedAt) {
        Key key = new Key(r.origin(), r.kind());
        ExtensionRecord previous = records.put(key, r.withAgeMillis(0));
        Long previousAt = originatedAtNanos.put(key, originatedAt);
        if (previousAt != null) {
            expiries.remove(new Expiry(previousAt + maxAgeNanos, key));
        } else {
            perOrigin.merge(r.origin(), 1, Integer::sum);
        }
        expiries.add(new Expiry(originatedAt + maxAgeNanos, key));
        return previous;
    }

    /** Removes and returns every entry of {@code origin}, in kind order. */
    List<ExtensionRecord> removeOrigin(NodeId origin) {
        NavigableMap<Key, ExtensionRecord> range = range(origin);
        List<ExtensionRecord> removed = new ArrayList<>(range.values());
        for (Key key : range.keySet()) {
            expiries.remove(new Expiry(originatedAtNanos.remove(key) + maxAgeNanos, key));
        }
        range.clear();
        perOrigin.remove(origin);
        return removed;
    }

    /** Removes and returns every entry that has reached maxAge by {@code nowNanos}. */
    List<ExtensionRecord> expire(long nowNanos) {
        List<ExtensionRecord> expired = new ArrayList<>();
        while (!expiries.isEmpty() && expiries.first().atNanos() <= nowNanos) {
            Key key = expiries.pollFirst().key();
            originatedAtNanos.remove(key);
            expired.add(records.remove(key));
            if (perOrigin.merge(key.origin(), -1, Integer::sum) == 0) {
                perOrigin.remove(key.origin());
            }
        }
        return expired;
    }

    /** When the next entry expires, or {@link Long#MAX_VALUE}. */
    long nextExpiryNanos() {
        return expiries.isEmpty() ? Long.MAX_VALUE : expiries.first().atNanos();
    }

    int size() {
        return records.size();
    }

    private NavigableMap<Key, ExtensionRecord> range(NodeId origin) {
        return records.subMap(new Key(origin, 0), true, new Key(origin, ExtensionRecord.MAX_KIND), true);
    }
}
