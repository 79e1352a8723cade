package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import net.hopwise.overlay.NodeId;

/**
 * The newest advertisement of every origin a node knows, including its own. Outsiders get a
 * read-only view; only the owning {@link Router} changes it.
 *
 * <p>Records are held with age 0 and beside them the local estimate of when their origin created
 * them, so two nodes that hold the same version hold equal records. Every origin but the owner
 * expires {@code maxAge} after that moment.
 */
public final class LinkStateDatabase {
    private record Expiry(long atNanos, NodeId origin) implements Comparable<Expiry> {
        @Override
        public int compareTo(Expiry o) {
            int c = Long.compare(atNanos, o.atNanos);
            return c != 0 ? c : origin.compareTo(o.origin);
        }
    }

    private final NodeId owner;
    private final long maxAgeNanos;
    // Sorted by id, so iteration (and everything derived from it) is the same on every node.
    private final TreeMap<NodeId, LinkStateAdvertisement> records = new TreeMap<>();
    private final Map<NodeId, Long> originatedAtNanos = new HashMap<>();
    private final TreeSet<Expiry> expiries = new TreeSet<>();
    private final Map<String, NodeId> idsByName = new HashMap<>();
    private final Collection<LinkStateAdvertisement> view = Collections.unmodifiableCollection(records.values());

    LinkStateDatabase(NodeId owner, long maxAgeNanos) {
        this.owner = owner;
        this.maxAgeNanos = maxAgeNanos;
    }

    /** Every advertisement held, in ascending (unsigned) origin order, each with age 0. */
    public Collection<LinkStateAdvertisement> advertisements() {
        return view;
    }

    public Optional<LinkStateAdvertisement> get(NodeId origin) {
        return Optional.ofNullable(records.get(origin));
    }

    /** The name a node advertises for itself, if its advertisement is held. */
    public Optional<String> nameOf(NodeId node) {
        LinkStateAdvertisement a = records.get(node);
        return a == null ? Optional.empty() : Optional.of(a.originName());
    }

    /** The node that advertises this name, if any. */
    public Optional<NodeId> idOf(String name) {
        return Optional.ofNullable(idsByName.get(name));
    }

    /** How long ago {@code origin} created the version held, if one is held. */
    public OptionalLong ageNanos(NodeId origin, long nowNanos) {
        Long at = originatedAtNanos.get(origin);
        return at == null ? OptionalLong.empty() : OptionalLong.of(nowNanos - at);
    }

    public int size() {
        return records.size();
    }

    /** The advertisement held for {@code origin}, or null. */
    LinkStateAdvertisement current(NodeId origin) {
        return records.get(origin);
    }

    /** When the owner's copy of {@code origin}'s advertisement was created; the origin must be held. */
    long originatedAtNanos(NodeId origin) {
        return originatedAtNanos.get(origin);
    }

    /** Replaces {@code a.origin()}'s advertisement with {@code a}; returns the one replaced, or null. */
    LinkStateAdvertisement install(LinkStateAdvertisement a, long originatedAt) {
        NodeId origin = a.origin();
        LinkStateAdvertisement previous = records.put(origin, a.withAgeMillis(0));
        Long previousAt = originatedAtNanos.put(origin, originatedAt);
        if (previous != null) {
            idsByName.remove(previous.originName(), origin);
        }
        idsByName.put(a.originName(), origin);
        if (!origin.equals(owner)) {
            if (previousAt != null) {
                expiries.remove(new Expiry(previousAt + maxAgeNanos, origin));
            }
            expiries.add(new Expiry(originatedAt + maxAgeNanos, origin));
        }
        return previous;
    }

    /** Of the origins {@code candidate} accepts, the one whose advertisement expires first (never the owner); null if none. */
    NodeId firstExpiring(Predicate<NodeId> candidate) {
        for (Expiry e : expiries) {
            if (candidate.test(e.origin())) {
                return e.origin();
            }
        }
        return null;
    }

    /** Removes and returns {@code origin}'s advertisement, which must be held and not the owner's. */
    LinkStateAdvertisement remove(NodeId origin) {
        LinkStateAdvertisement a = records.remove(origin);
        long at = originatedAtNanos.remove(origin);
        expiries.remove(new Expiry(at + maxAgeNanos, origin));
        idsByName.remove(a.originName(), origin);
        return a;
    }

    /** Removes and returns every advertisement that has reached maxAge by {@code nowNanos}. */
    List<LinkStateAdvertisement> expire(long nowNanos) {
        List<LinkStateAdvertisement> expired = new ArrayList<>();
        while (!expiries.isEmpty() && expiries.first().atNanos() <= nowNanos) {
            NodeId origin = expiries.pollFirst().origin();
            LinkStateAdvertisement a = records.remove(origin);
            originatedAtNanos.remove(origin);
            idsByName.remove(a.originName(), origin);
            expired.add(a);
        }
        return expired;
    }

    /** When the next advertisement expires, or {@link Long#MAX_VALUE}. */
    long nextExpiryNanos() {
        return expiries.isEmpty() ? Long.MAX_VALUE : expiries.first().atNanos();
    }
}
