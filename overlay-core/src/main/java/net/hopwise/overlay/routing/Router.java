package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import net.hopwise.overlay.NodeId;

/**
 * The link-state router of one node, sans-IO: it keeps the link-state database, floods
 * advertisements reliably to its up neighbours, ages out advertisements of nodes that left, and
 * computes routes under every {@link RoutingMetric}. Time comes in as {@code nowNanos} (it must not
 * go backwards); packets go out through the {@link RouterOutput}; {@link #nextDeadlineNanos()} says
 * when to call {@link #onTimer} next. Single-threaded, no locks.
 *
 * <p><b>Flooding.</b> Each advertisement received is acked to the sender. A newer one is installed
 * and sent to every other up neighbour (except its origin) and resent every floodRetransmitInterval
 * until that neighbour acks it or shows it has it by sending the same or a newer version. An older
 * one is answered with ours. A neighbour that comes up receives the whole database. Acks leave at
 * the end of the call that produced them. Updates to a neighbour leave at the end of the call too,
 * unless one left less than floodPacingInterval ago: then they wait for the interval to end, and an
 * origin's version superseded meanwhile is never sent (the neighbour gets the current one). Both are
 * packed into as few packets as fit maxUpdateBodyBytes. Advertisements too large to re-flood within
 * that limit, and new origins beyond maxOrigins, are acked, dropped and counted. Updates and acks
 * from a node that is not an up neighbour are ignored (not acked) and counted: its retransmissions
 * get through once the link is up here too.
 *
 * <p><b>Own advertisement.</b> Re-originated at once when a neighbour comes up or goes down, every
 * refreshInterval, and when a cost change is significant (see {@link RoutingConfig}), at most once
 * per minReadvertiseInterval. Versions: see {@link LinkStateAdvertisement}.
 *
 * <p><b>Departed nodes.</b> A node that leaves stops being routed to at once (its neighbours' links
 * to it disappear and links count only when both ends list them), and its advertisement expires
 * maxAge after its last refresh. Unreachable origins are kept until then, so a healed partition
 * routes again without waiting for a refresh.
 *
 * <p><b>Routes.</b> Recomputed after a change of the graph (a link or cost, not a mere refresh), at
 * most once per minRecomputeInterval; a later change waits for the deadline. See {@link RoutingTable}
 * for which of several equal-cost paths is chosen, the same on every node.
 */
public final class Router {
    private static final long NONE = Long.MAX_VALUE;

    /** An advertisement sent to a neighbour and not yet acknowledged. */
    private record Unacked(long sequence, long retransmitAtNanos) {}

    /** What the router knows of one up neighbour. */
    private static final class Neighbour {
        final NodeId id;
        LinkCost cost;
        /** In order of retransmission time, because each is re-inserted when sent. */
        final LinkedHashMap<NodeId, Unacked> unacked = new LinkedHashMap<>();
        /** Origins whose current advertisement is to be sent when pacing allows. */
        final LinkedHashSet<NodeId> outgoing = new LinkedHashSet<>();
        /** Pacing: no update leaves for this neighbour before this. */
        long sendAllowedAtNanos = Long.MIN_VALUE;
        /** Acks to send at the end of the current call; empty between calls. */
        final LinkedHashSet<LinkStateAck.AckEntry> acks = new LinkedHashSet<>();

        Neighbour(NodeId id, LinkCost cost) {
            this.id = id;
            this.cost = cost;
        }

        /** The neighbour has version {@code sequence} of {@code origin}: stop sending it older ones. */
        void acknowledged(NodeId origin, long sequence) {
            Unacked u = unacked.get(origin);
            if (u != null && u.sequence() <= sequence) {
                unacked.remove(origin);
            }
        }

        /** When this neighbour next needs the router: a paced send or a retransmission. */
        long nextDeadlineNanos() {
            Iterator<Unacked> first = unacked.values().iterator();
            long retransmit = first.hasNext() ? first.next().retransmitAtNanos() : NONE;
            return outgoing.isEmpty() ? retransmit : Math.min(retransmit, sendAllowedAtNanos);
        }
    }

    private final NodeId self;
    private final String selfName;
    private final RoutingConfig config;
    private final RouterOutput out;
    private final long retransmitNanos;
    private final long pacingNanos;
    private final long refreshNanos;
    private final long maxAgeNanos;
    private final long minRecomputeNanos;
    private final long minReadvertiseNanos;
    private final LinkStateDatabase database;
    private final TreeMap<NodeId, Neighbour> neighbours = new TreeMap<>();
    private final Set<NodeId> neighbourView = Collections.unmodifiableSet(neighbours.keySet());

    private long sequence;
    private long lastOriginationNanos;
    private long readvertiseAtNanos = NONE;
    private boolean graphChanged;
    private long lastRecomputeNanos;
    private RoutingTable table;

    private long recomputations;
    private long rejectedAdvertisements;
    private long ignoredMessages;
    private long retransmissions;

    /**
     * @param self this node
     * @param selfName its name, advertised to every node
     * @param config flooding and routing settings
     * @param out where packets and route changes go
     * @param sequenceBase the first sequence of this node's advertisements: wall-clock milliseconds at
     *     start, so a restart starts above the previous life (see {@link LinkStateAdvertisement})
     * @param nowNanos the current time
     */
    public Router(NodeId self, String selfName, RoutingConfig config, RouterOutput out, long sequenceBase, long nowNanos) {
        this.self = Objects.requireNonNull(self, "self");
        this.selfName = NodeId.requireValidName(selfName);
        this.config = Objects.requireNonNull(config, "config");
        this.out = Objects.requireNonNull(out, "out");
        if (sequenceBase < 0 || sequenceBase == Long.MAX_VALUE) {
            throw new IllegalArgumentException("sequenceBase must be 0 to 2^63 - 2: " + sequenceBase);
        }
        retransmitNanos = config.floodRetransmitInterval().toNanos();
        pacingNanos = config.floodPacingInterval().toNanos();
        refreshNanos = config.refreshInterval().toNanos();
        maxAgeNanos = config.maxAge().toNanos();
        minRecomputeNanos = config.minRecomputeInterval().toNanos();
        minReadvertiseNanos = config.minReadvertiseInterval().toNanos();
        database = new LinkStateDatabase(self, maxAgeNanos);
        table = RoutingTable.selfOnly(self);
        lastRecomputeNanos = nowNanos - minRecomputeNanos;
        sequence = sequenceBase - 1;
        originate(nowNanos);
        graphChanged = false;
    }

    /** A link to {@code neighbour} came up (or was re-established): advertise it and send the neighbour the database. */
    public void neighbourUp(NodeId neighbour, LinkCost cost, long nowNanos) {
        requireOther(neighbour);
        Objects.requireNonNull(cost, "cost");
        Neighbour n = neighbours.get(neighbour);
        if (n == null) {
            n = new Neighbour(neighbour, cost);
            neighbours.put(neighbour, n);
        }
        n.cost = cost;
        originate(nowNanos);
        for (LinkStateAdvertisement a : database.advertisements()) {
            n.outgoing.add(a.origin());
        }
        finish(nowNanos);
    }

    /** The link to {@code neighbour} went down: advertise that and stop sending to it. Unknown neighbours are ignored. */
    public void neighbourDown(NodeId neighbour, long nowNanos) {
        requireOther(neighbour);
        if (neighbours.remove(neighbour) == null) {
            return;
        }
        originate(nowNanos);
        finish(nowNanos);
    }

    /**
     * The measured cost of the link to {@code neighbour} changed; it is advertised only if it differs
     * significantly from the advertised cost, at most once per minReadvertiseInterval. Ignored for a
     * neighbour that is not up (a late measurement).
     */
    public void neighbourCostChanged(NodeId neighbour, LinkCost cost, long nowNanos) {
        requireOther(neighbour);
        Objects.requireNonNull(cost, "cost");
        Neighbour n = neighbours.get(neighbour);
        if (n == null) {
            return;
        }
        n.cost = cost;
        if (differsSignificantly(n)) {
            long allowedAt = lastOriginationNanos + minReadvertiseNanos;
            if (nowNanos >= allowedAt) {
                originate(nowNanos);
            } else {
                readvertiseAtNanos = Math.min(readvertiseAtNanos, allowedAt);
            }
        }
        finish(nowNanos);
    }

    /** An update arrived from {@code from}; ignored (and counted) unless {@code from} is an up neighbour. */
    public void onUpdate(NodeId from, LinkStateUpdate update, long nowNanos) {
        Neighbour n = neighbours.get(from);
        if (n == null) {
            ignoredMessages++;
            return;
        }
        for (LinkStateAdvertisement a : update.advertisements()) {
            receive(n, a, nowNanos);
        }
        finish(nowNanos);
    }

    /** An ack arrived from {@code from}; ignored (and counted) unless {@code from} is an up neighbour. */
    public void onAck(NodeId from, LinkStateAck ack, long nowNanos) {
        Neighbour n = neighbours.get(from);
        if (n == null) {
            ignoredMessages++;
            return;
        }
        for (LinkStateAck.AckEntry e : ack.entries()) {
            n.acknowledged(e.origin(), e.sequence());
            LinkStateAdvertisement held = database.current(e.origin());
            if (held != null && held.sequence() <= e.sequence()) {
                n.outgoing.remove(e.origin());
            }
        }
        finish(nowNanos);
    }

    /** Time passed: retransmit, refresh, age out, and run deferred re-advertisement and route computation. */
    public void onTimer(long nowNanos) {
        for (LinkStateAdvertisement gone : database.expire(nowNanos)) {
            if (!gone.links().isEmpty()) {
                graphChanged = true;
            }
        }
        if (nowNanos >= lastOriginationNanos + refreshNanos) {
            originate(nowNanos);
        } else if (nowNanos >= readvertiseAtNanos) {
            readvertiseAtNanos = NONE;
            for (Neighbour n : neighbours.values()) {
                if (differsSignificantly(n)) {
                    originate(nowNanos);
                    break;
                }
            }
        }
        for (Neighbour n : neighbours.values()) {
            // Queued, an advertisement leaves the unacked map until it is sent, so a send held back by
            // pacing is not also a retransmission deadline that has already passed.
            for (Iterator<Map.Entry<NodeId, Unacked>> it = n.unacked.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<NodeId, Unacked> e = it.next();
                if (e.getValue().retransmitAtNanos() > nowNanos) {
                    break;
                }
                it.remove();
                n.outgoing.add(e.getKey());
                retransmissions++;
            }
        }
        finish(nowNanos);
    }

    /** When {@link #onTimer} should next be called; {@link Long#MAX_VALUE} if never. */
    public long nextDeadlineNanos() {
        long deadline = Math.min(lastOriginationNanos + refreshNanos, readvertiseAtNanos);
        if (graphChanged) {
            deadline = Math.min(deadline, lastRecomputeNanos + minRecomputeNanos);
        }
        deadline = Math.min(deadline, database.nextExpiryNanos());
        for (Neighbour n : neighbours.values()) {
            deadline = Math.min(deadline, n.nextDeadlineNanos());
        }
        return deadline;
    }

    /** The neighbour to send to for {@code destination}; null if unreachable or self. No allocation. */
    public NodeId nextHop(NodeId destination, RoutingMetric metric) {
        return table.nextHop(destination, metric);
    }

    /** The route from this node to {@code destination}, both included; [self] for self, empty if unreachable. */
    public List<NodeId> path(NodeId destination, RoutingMetric metric) {
        return table.path(destination, metric);
    }

    /** The cost of {@link #path}: 0 for self, +Infinity if unreachable. */
    public double pathCost(NodeId destination, RoutingMetric metric) {
        return table.pathCost(destination, metric);
    }

    /** A read-only view of the link-state database. */
    public LinkStateDatabase database() {
        return database;
    }

    /** How many route computations have run. */
    public long recomputations() {
        return recomputations;
    }

    /** The neighbours currently up, in id order (a live read-only view). */
    public Set<NodeId> neighbours() {
        return neighbourView;
    }

    /** This node. */
    public NodeId self() {
        return self;
    }

    /** Advertisements dropped because they were too large to re-flood or beyond maxOrigins, or already expired. */
    public long rejectedAdvertisements() {
        return rejectedAdvertisements;
    }

    /** Updates and acks ignored because their sender was not an up neighbour. */
    public long ignoredMessages() {
        return ignoredMessages;
    }

    /** Advertisements sent again because a neighbour had not acknowledged them in time. */
    public long retransmissions() {
        return retransmissions;
    }

    /** Advertisements sent to some neighbour and not yet acknowledged, over all neighbours. */
    public int unacknowledged() {
        int count = 0;
        for (Neighbour n : neighbours.values()) {
            count += n.unacked.size();
        }
        return count;
    }

    private void requireOther(NodeId neighbour) {
        if (self.equals(Objects.requireNonNull(neighbour, "neighbour"))) {
            throw new IllegalArgumentException("a node is not its own neighbour: " + neighbour);
        }
    }

    private void receive(Neighbour from, LinkStateAdvertisement a, long nowNanos) {
        NodeId origin = a.origin();
        from.acks.add(new LinkStateAck.AckEntry(origin, a.sequence()));
        long ageNanos = a.ageMillis() * 1_000_000L;
        if (LinkStateCodec.UPDATE_HEADER_BYTES + LinkStateCodec.encodedSize(a) > config.maxUpdateBodyBytes()
                || ageNanos >= maxAgeNanos) {
            rejectedAdvertisements++;
            return;
        }
        LinkStateAdvertisement held = database.current(origin);
        if (origin.equals(self)) {
            receiveOwn(from, a, held, nowNanos);
            return;
        }
        if (held == null || a.sequence() > held.sequence()) {
            if (held == null && database.size() >= config.maxOrigins()) {
                rejectedAdvertisements++;
                return;
            }
            install(a, nowNanos - ageNanos);
            for (Neighbour n : neighbours.values()) {
                if (n != from && !n.id.equals(origin)) {
                    n.outgoing.add(origin);
                }
            }
            from.acknowledged(origin, a.sequence());
            from.outgoing.remove(origin);
        } else if (a.sequence() == held.sequence()) {
            from.acknowledged(origin, a.sequence());
            from.outgoing.remove(origin);
        } else {
            from.outgoing.add(origin);
        }
    }

    /** A copy of our own advertisement came back: a newer or different one is from a previous life. */
    private void receiveOwn(Neighbour from, LinkStateAdvertisement a, LinkStateAdvertisement mine, long nowNanos) {
        if (a.sequence() > mine.sequence() || (a.sequence() == mine.sequence() && !a.sameVersionAs(mine))) {
            sequence = Math.max(sequence, a.sequence());
            originate(nowNanos);
        } else if (a.sequence() < mine.sequence()) {
            from.outgoing.add(self);
        } else {
            from.acknowledged(self, a.sequence());
        }
    }

    private void install(LinkStateAdvertisement a, long originatedAtNanos) {
        LinkStateAdvertisement previous = database.install(a, originatedAtNanos);
        List<LinkStateAdvertisement.Link> before = previous == null ? List.of() : previous.links();
        if (!before.equals(a.links())) {
            graphChanged = true;
        }
    }

    /** Creates, installs and floods a new version of our own advertisement. */
    private void originate(long nowNanos) {
        sequence++;
        List<Neighbour> advertised = new ArrayList<>(neighbours.values());
        int room = config.maxLinksPerAdvertisement();
        if (advertised.size() > room) {
            advertised.sort(Comparator.comparingInt((Neighbour n) -> n.cost.latencyMicros()).thenComparing(n -> n.id));
            advertised = advertised.subList(0, room);
            advertised.sort(Comparator.comparing(n -> n.id));
        }
        List<LinkStateAdvertisement.Link> links = new ArrayList<>(advertised.size());
        for (Neighbour n : advertised) {
            links.add(new LinkStateAdvertisement.Link(n.id, n.cost));
        }
        install(new LinkStateAdvertisement(self, selfName, sequence, 0, links), nowNanos);
        lastOriginationNanos = nowNanos;
        readvertiseAtNanos = NONE;
        for (Neighbour n : neighbours.values()) {
            n.outgoing.add(self);
        }
    }

    /** Whether the neighbour's measured cost differs enough from the advertised one to flood. */
    private boolean differsSignificantly(Neighbour n) {
        LinkCost advertised = database.current(self).costTo(n.id);
        if (advertised == null) {
            return true;
        }
        long latencyChange = Math.abs((long) n.cost.latencyMicros() - advertised.latencyMicros());
        boolean latency = latencyChange >= config.readvertiseLatencyMicros()
                && latencyChange >= config.readvertiseLatencyFraction() * advertised.latencyMicros();
        boolean loss = Math.abs(n.cost.lossPpm() - advertised.lossPpm()) >= config.readvertiseLossPpm();
        return latency || loss;
    }

    /** Sends what this call produced, then recomputes routes if the graph changed and the rate limit allows. */
    private void finish(long nowNanos) {
        for (Neighbour n : neighbours.values()) {
            sendAcks(n);
            sendUpdates(n, nowNanos);
        }
        if (graphChanged && nowNanos - lastRecomputeNanos >= minRecomputeNanos) {
            recompute(nowNanos);
        }
    }

    private void sendAcks(Neighbour n) {
        if (n.acks.isEmpty()) {
            return;
        }
        int perPacket = (config.maxUpdateBodyBytes() - LinkStateCodec.ACK_HEADER_BYTES) / LinkStateCodec.ACK_ENTRY_BYTES;
        List<LinkStateAck.AckEntry> batch = new ArrayList<>();
        for (LinkStateAck.AckEntry e : n.acks) {
            batch.add(e);
            if (batch.size() == perPacket) {
                out.sendAck(n.id, new LinkStateAck(batch));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            out.sendAck(n.id, new LinkStateAck(batch));
        }
        n.acks.clear();
    }

    private void sendUpdates(Neighbour n, long nowNanos) {
        if (n.outgoing.isEmpty() || nowNanos < n.sendAllowedAtNanos) {
            return;
        }
        n.sendAllowedAtNanos = nowNanos + pacingNanos;
        List<LinkStateAdvertisement> batch = new ArrayList<>();
        int size = LinkStateCodec.UPDATE_HEADER_BYTES;
        for (NodeId origin : n.outgoing) {
            LinkStateAdvertisement held = database.current(origin);
            // Re-inserting keeps the map in retransmission order.
            n.unacked.remove(origin);
            if (held == null) {
                continue;
            }
            LinkStateAdvertisement copy = held.withAgeMillis(ageMillis(origin, nowNanos));
            int s = LinkStateCodec.encodedSize(copy);
            if (size + s > config.maxUpdateBodyBytes()) {
                out.sendUpdate(n.id, new LinkStateUpdate(batch));
                batch.clear();
                size = LinkStateCodec.UPDATE_HEADER_BYTES;
            }
            batch.add(copy);
            size += s;
            n.unacked.put(origin, new Unacked(copy.sequence(), nowNanos + retransmitNanos));
        }
        if (!batch.isEmpty()) {
            out.sendUpdate(n.id, new LinkStateUpdate(batch));
        }
        n.outgoing.clear();
    }

    /** The age to write: rounded up, so a copy never outlives maxAge because of rounding. */
    private int ageMillis(NodeId origin, long nowNanos) {
        long ageNanos = Math.max(0, nowNanos - database.originatedAtNanos(origin));
        return (int) Math.min(Integer.MAX_VALUE, (ageNanos + 999_999) / 1_000_000);
    }

    private void recompute(long nowNanos) {
        RoutingTable next = RoutingTable.compute(self, database.advertisements(), config);
        recomputations++;
        lastRecomputeNanos = nowNanos;
        graphChanged = false;
        boolean changed = !next.sameRoutesAs(table);
        table = next;
        if (changed) {
            out.routesChanged(nowNanos);
        }
    }
}
