package net.hopwise.overlay.routing;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.LinkStateSigner;
import net.hopwise.overlay.wire.DropReason;

/**
 * The link-state router of one node, sans-IO: it keeps the link-state database, floods
 * advertisements reliably to its up neighbours, ages out advertisements of nodes that left, and
 * computes routes under every {@link RoutingMetric}. Time comes in as {@code nowNanos} (it must not
 * go backwards); packets go out through the {@link RouterOutput}; {@link #nextDeadlineNanos()} says
 * when to call {@link #onTimer} next. Single-threaded, no locks.
 *
 * <p><b>Flooding.</b> Each advertisement received is acked to the sender. A newer one is installed
 * and sent to every other up neighbour (its origin included, so that the origin learns at once of a
 * forged copy and answers it) and resent every floodRetransmitInterval until that neighbour acks it
 * or shows it has it by sending the same or a newer version. An older one is answered with ours.
 * Two different copies with one sequence (a forgery, or a previous life) are ordered by
 * {@link LinkStateAdvertisement#compareContent}, so every node keeps the same one. A newer version
 * never expires before the one it replaces, since its origin created it later: a forged copy that
 * claims an age near maxAge still lives long enough to reach its origin, which then beats it. A neighbour that comes up receives the whole database. Acks leave at
 * the end of the call that produced them. Updates to a neighbour leave at the end of the call too,
 * unless one left less than floodPacingInterval ago: then they wait for the interval to end, and an
 * origin's version superseded meanwhile is never sent (the neighbour gets the current one). Both are
 * packed into as few packets as fit maxUpdateBodyBytes.
 *
 * <p><b>Refusals.</b> Each refused advertisement is counted and reported to
 * {@link RouterOutput#advertisementRejected}. Refused for good, and acked so the sender stops: one too
 * large to re-flood within maxUpdateBodyBytes ({@link DropReason#OVERSIZED}), one already at maxAge
 * ({@link DropReason#STALE}), a new origin when maxOrigins are held and a route reaches every one of
 * them ({@link DropReason#LINK_STATE_LIMIT}; if some held origin is unreachable, the one that expires
 * first makes room instead, so made-up origins cannot keep out a new real one).
 * Refused for now, and not acked so an honest sender resends it after floodRetransmitInterval: a newer
 * copy that {@link AdvertisementAdmission} does not admit (a sequence beyond the clock's window, or a
 * neighbour or origin over its per-interval limit; {@link DropReason#LINK_STATE_LIMIT}). Updates and
 * acks from a node that is not an up neighbour are ignored (not acked) and counted, their
 * advertisements reported as {@link DropReason#NOT_A_NEIGHBOUR}: its retransmissions get through once
 * the link is up here too.
 *
 * <p><b>Own advertisement.</b> Re-originated at once when a neighbour comes up or goes down, every
 * refreshInterval, and when a cost change is significant (see {@link RoutingConfig}), at most once
 * per minReadvertiseInterval. Versions: see {@link LinkStateAdvertisement}. A neighbour's copy of it that
 * is newer, or as new but different, is a previous life's or a forgery: the router takes its sequence
 * and re-originates above it at once, so the real advertisement wins back everywhere. The copy is
 * never installed, so the database always holds this node's live advertisement; and since admission
 * keeps every sequence below 2^62, re-originating can never run out of sequences.
 *
 * <p><b>Departed nodes.</b> A node that leaves stops being routed to at once (its neighbours' links
 * to it disappear and links count only when both ends list them), and its advertisement expires
 * maxAge after its last refresh. Unreachable origins are kept until then, so a healed partition
 * routes again without waiting for a refresh.
 *
 * <p><b>Routes.</b> Recomputed after a change of the graph (a link or cost, not a mere refresh), at
 * most once per minRecomputeInterval; a later change waits for the deadline. See {@link RoutingTable}
 * for which of several equal-cost paths is chosen, the same on every node. A route moves to a better
 * path only when it is better by the route-change margin: until then the previous next hop is kept
 * if it is strictly closer to the destination, which keeps forwarding loop-free; a failed or
 * degraded path is left in the same computation ({@link RouteHysteresis}).
 *
 * <p><b>Extensions.</b> Beside advertisements the router floods link-state extension records: one
 * opaque record per (origin, kind) that modules publish ({@link #publishExtension}) and read
 * ({@link #extensions}), in packets of their own ({@link ExtensionCodec}). They are ordered, admitted,
 * aged and collected like advertisements, go when their origin's advertisement goes, and never cause a
 * route computation; see {@code LinkStateExtensions}.
 *
 * <p><b>Trees.</b> {@link #tree} gives the shortest-path tree from any source, from the same snapshot
 * of the database as the routes, cached until the next route computation.
 *
 * <p>About 660 lines, over the house's 400: admission ({@code AdvertisementAdmission}), signatures
 * ({@code Signatures}), per-link flooding ({@code FloodNeighbour}), own origination ({@code OwnAdvertisement}), extension records
 * ({@code LinkStateExtensions}) and trees ({@code SourceTrees}) are already classes of their own; what
 * stays is the sequencing of one update's handling across them, which reads best in one place, and the
 * public face of each.
 */
public final class Router {

    private final NodeId self;
    private final RoutingConfig config;
    private final RouterOutput out;
    private final long retransmitNanos;
    private final long pacingNanos;
    private final long maxAgeNanos;
    private final long minRecomputeNanos;
    private final LinkStateDatabase database;
    private final AdvertisementAdmission admission;
    private final TreeMap<NodeId, FloodNeighbour> neighbours = new TreeMap<>();
    /** The same neighbours in id order, for the deadline walk that runs after every input of the node. */
    private FloodNeighbour[] neighbourArray = new FloodNeighbour[0];
    private final Set<NodeId> neighbourView = Collections.unmodifiableSet(neighbours.keySet());

    private final OwnAdvertisement own;
    private final LinkStateExtensions extensions;
    private SourceTrees trees;
    private boolean graphChanged;
    private long lastRecomputeNanos;
    private RoutingTable table;

    private long recomputations;
    private long rejectedAdvertisements;
    private long limitedAdvertisements;
    private long evicted;
    private long ignoredMessages;
    private final Signatures signatures;
    private long retransmissions;

    /**
     * @param self this node
     * @param selfName its name, advertised to every node
     * @param config flooding and routing settings
     * @param out where packets and route changes go
     * @param sequenceBase the first sequence of this node's advertisements: wall-clock milliseconds at
     *     start, so a restart starts above the previous life (see {@link LinkStateAdvertisement}); also
     *     this node's reading of the wall clock, against which others' sequences are judged
     *     ({@code AdvertisementAdmission})
     * @param nowNanos the current time
     */
    public Router(NodeId self, String selfName, RoutingConfig config, RouterOutput out, long sequenceBase, long nowNanos) {
        this(self, selfName, config, out, sequenceBase, nowNanos, null);
    }

    /**
     * A router whose link state is signed with {@code signer}: what it originates is signed, and a
     * newer version from anyone else is installed only once its origin's signature verifies (null: no
     * signatures, as the constructor above).
     */
    public Router(NodeId self, String selfName, RoutingConfig config, RouterOutput out, long sequenceBase, long nowNanos,
            LinkStateSigner signer) {
        this.self = Objects.requireNonNull(self, "self");
        this.signatures = new Signatures(signer);
        if (config.maxUpdateBodyBytes() < RoutingConfig.MIN_UPDATE_BODY_BYTES + signatures.overheadBytes()) {
            throw new IllegalArgumentException("maxUpdateBodyBytes " + config.maxUpdateBodyBytes()
                    + " leaves no room for a signed advertisement: at least "
                    + (RoutingConfig.MIN_UPDATE_BODY_BYTES + signatures.overheadBytes()) + " with this signer");
        }
        NodeId.requireValidName(selfName);
        this.config = Objects.requireNonNull(config, "config");
        this.out = Objects.requireNonNull(out, "out");
        if (sequenceBase < 0 || sequenceBase > AdvertisementAdmission.MAX_CEILING) {
            throw new IllegalArgumentException("sequenceBase must be 0 to 2^62: " + sequenceBase);
        }
        retransmitNanos = config.floodRetransmitInterval().toNanos();
        pacingNanos = config.floodPacingInterval().toNanos();
        maxAgeNanos = config.maxAge().toNanos();
        minRecomputeNanos = config.minRecomputeInterval().toNanos();
        database = new LinkStateDatabase(self, maxAgeNanos);
        admission = new AdvertisementAdmission(config, sequenceBase, nowNanos);
        table = RoutingTable.selfOnly(self);
        trees = new SourceTrees(table);
        extensions = new LinkStateExtensions(self, config, out, database, sequenceBase, nowNanos, signatures);
        lastRecomputeNanos = nowNanos - minRecomputeNanos;
        own = new OwnAdvertisement(self, selfName, config, sequenceBase, signatures.overheadBytes());
        originate(nowNanos);
        graphChanged = false;
    }

    /** A link to {@code neighbour} came up (or was re-established): advertise it and send the neighbour the database. */
    public void neighbourUp(NodeId neighbour, LinkCost cost, long nowNanos) {
        requireOther(neighbour);
        Objects.requireNonNull(cost, "cost");
        FloodNeighbour n = neighbours.get(neighbour);
        if (n == null) {
            n = new FloodNeighbour(neighbour, cost);
            neighbours.put(neighbour, n);
            neighbourArray = neighbours.values().toArray(new FloodNeighbour[0]);
        }
        n.cost = cost;
        originate(nowNanos);
        for (LinkStateAdvertisement a : database.advertisements()) {
            n.outgoing.add(a.origin());
        }
        extensions.neighbourUp(neighbour);
        finish(nowNanos);
    }

    /** The link to {@code neighbour} went down: advertise that and stop sending to it. Unknown neighbours are ignored. */
    public void neighbourDown(NodeId neighbour, long nowNanos) {
        requireOther(neighbour);
        if (neighbours.remove(neighbour) == null) {
            return;
        }
        neighbourArray = neighbours.values().toArray(new FloodNeighbour[0]);
        admission.forgetNeighbour(neighbour);
        extensions.neighbourDown(neighbour);
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
        FloodNeighbour n = neighbours.get(neighbour);
        if (n == null) {
            return;
        }
        n.cost = cost;
        if (own.differsSignificantly(database.current(self), n) && own.mayReadvertise(nowNanos)) {
            originate(nowNanos);
        }
        finish(nowNanos);
    }

    /** An update arrived from {@code from}; ignored (and counted) unless {@code from} is an up neighbour. */
    public void onUpdate(NodeId from, LinkStateUpdate update, long nowNanos) {
        FloodNeighbour n = neighbours.get(from);
        if (n == null) {
            ignoredMessages++;
            for (int i = update.advertisements().size(); i > 0; i--) {
                out.advertisementRejected(from, DropReason.NOT_A_NEIGHBOUR);
            }
            return;
        }
        for (LinkStateAdvertisement a : update.advertisements()) {
            receive(n, a, nowNanos);
        }
        finish(nowNanos);
    }

    /** An ack arrived from {@code from}; ignored (and counted) unless {@code from} is an up neighbour. */
    public void onAck(NodeId from, LinkStateAck ack, long nowNanos) {
        FloodNeighbour n = neighbours.get(from);
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
            admission.forgetOrigin(gone.origin());
            extensions.originGone(gone.origin());
            if (!gone.links().isEmpty()) {
                graphChanged = true;
            }
        }
        if (own.refreshDue(nowNanos)) {
            originate(nowNanos);
        } else if (own.takeReadvertiseDue(nowNanos)) {
            for (FloodNeighbour n : neighbours.values()) {
                if (own.differsSignificantly(database.current(self), n)) {
                    originate(nowNanos);
                    break;
                }
            }
        }
        for (FloodNeighbour n : neighbours.values()) {
            retransmissions += n.requeueDue(nowNanos);
        }
        retransmissions += extensions.onTimer(nowNanos);
        finish(nowNanos);
    }

    /** When {@link #onTimer} should next be called; {@link Long#MAX_VALUE} if never. */
    public long nextDeadlineNanos() {
        long deadline = own.nextDeadlineNanos();
        if (graphChanged) {
            deadline = Math.min(deadline, lastRecomputeNanos + minRecomputeNanos);
        }
        deadline = Math.min(deadline, database.nextExpiryNanos());
        deadline = Math.min(deadline, extensions.nextDeadlineNanos());
        for (FloodNeighbour n : neighbourArray) {
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

    /**
     * The longest extension record this node publishes: {@link RoutingConfig#maxExtensionBytes}, less the
     * room a signature takes where link state is signed.
     */
    public int maxExtensionBytes() {
        return extensions.maxRecordBytes();
    }

    /**
     * Publishes this node's link-state extension record of {@code kind}, replacing the previous one, or
     * withdraws it ({@code record} null), and floods the change; publishing what is already held, or
     * withdrawing what is not, does nothing. The record is copied. The router re-publishes it every
     * refreshInterval while it stands. Never causes a route computation.
     *
     * @param kind 1 to 65535
     * @throws IllegalArgumentException for a kind out of range, a record longer than
     *     {@link #maxExtensionBytes()}, or a new kind beyond {@link RoutingConfig#maxExtensionsPerOrigin}
     */
    public void publishExtension(int kind, byte[] record, long nowNanos) {
        extensions.publish(kind, record, nowNanos);
        finish(nowNanos);
    }

    /**
     * Every origin's current record of {@code kind}, this node's own included, withdrawn ones absent:
     * a fresh map of fresh copies, in origin order.
     *
     * @throws IllegalArgumentException for a kind out of range
     */
    public Map<NodeId, byte[]> extensions(int kind) {
        return extensions.records(kind);
    }

    /**
     * A {@code LINK_STATE_EXTENSION} packet arrived from {@code from} (decoded by
     * {@link ExtensionCodec#decodeUpdate}); ignored (and counted) unless {@code from} is an up neighbour.
     */
    public void onExtensionUpdate(NodeId from, ExtensionUpdate update, long nowNanos) {
        if (!extensions.isNeighbour(from)) {
            ignoredMessages++;
            for (int i = update.records().size(); i > 0; i--) {
                out.advertisementRejected(from, DropReason.NOT_A_NEIGHBOUR);
            }
            return;
        }
        extensions.onUpdate(from, update, nowNanos);
        finish(nowNanos);
    }

    /**
     * A {@code LINK_STATE_EXTENSION_ACK} packet arrived from {@code from} (decoded by
     * {@link ExtensionCodec#decodeAck}); ignored (and counted) unless {@code from} is an up neighbour.
     */
    public void onExtensionAck(NodeId from, ExtensionAck ack, long nowNanos) {
        if (!extensions.isNeighbour(from)) {
            ignoredMessages++;
            return;
        }
        extensions.onAck(from, ack);
        finish(nowNanos);
    }

    /**
     * The shortest-path tree rooted at {@code source} under {@code metric}: each node it reaches mapped
     * to its parent, the source to itself; empty when the source was not in the database at the last
     * route computation. Read-only, cached per (source, metric) until the next route computation (the
     * least recently used dropped beyond a few hundred thousand entries).
     *
     * <p>It is computed from the database as of the last route computation (the snapshot
     * {@link #path} answers from) with exactly the tie-breaking of this node's own routes (least cost,
     * then fewest hops, then the smallest sequence of ids; see {@code RoutingTable}). What holds:
     * <ul>
     *   <li>For every node v in the tree, the chain of parents from the source down to v is the
     *       least-cost route that {@code source} computes to v from the same database.
     *   <li>For every node x on that chain, the rest of the chain from x to v is x's own least-cost
     *       route to v (least-cost routes are closed under suffixes), so x's child towards v is the
     *       next hop x computes for v, at every node whose database equals this one.
     *   <li>{@code tree(self())} is this node's least-cost tree: {@link #path} follows it for every
     *       destination, except a destination whose route this node keeps through its previous next
     *       hop within the route-change margin ({@code RouteHysteresis}).
     * </ul>
     * Hysteresis depends on each node's history, which cannot be known for another source, so it is
     * ignored: a node keeping a previous next hop within its margin forwards off the tree, by a path at
     * most its margin costlier. With zero margins ({@link RoutingConfig.Builder#noRouteChangeMargin}),
     * and always for HOPS, every node's next hop is its child on the tree. While databases differ,
     * during flooding, trees computed at different nodes may differ as routes may.
     */
    public Map<NodeId, NodeId> tree(NodeId source, RoutingMetric metric) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
        return trees.tree(source, metric);
    }

    /** Extension records refused, counted apart from {@link #rejectedAdvertisements}. */
    public long rejectedExtensions() {
        return extensions.rejected();
    }

    /** Extension records not taken for now because their origin's advertisement was not held yet; resent by their senders. */
    public long deferredExtensions() {
        return extensions.deferred();
    }

    /** Extension records sent to some neighbour and not yet acknowledged, over all neighbours. */
    public int unacknowledgedExtensions() {
        return extensions.unacknowledged();
    }

    /**
     * The state a forger inventing origin ids can make this node keep for its bound on vain signature
     * checks, advertisements' and records' (origins with a window of their own, over all neighbours);
     * not public, as it is no meter, only what tests hold to its bound.
     */
    int vainCheckOrigins() {
        return admission.vainCheckOrigins() + extensions.vainCheckOrigins();
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

    /** Advertisements refused, for any reason but a sender that is not an up neighbour (see {@link #ignoredMessages}). */
    /**
     * Up neighbours our current advertisement does not list because one update has no room for them
     * (see {@link RoutingConfig#maxLinksPerAdvertisement}): the rest of the overlay cannot route
     * through those links.
     */
    public int linksLeftOut() {
        return own.linksLeftOut();
    }

    public long rejectedAdvertisements() {
        return rejectedAdvertisements;
    }

    /** Of {@link #rejectedAdvertisements}, those refused with {@link DropReason#LINK_STATE_LIMIT}. */
    public long limitedAdvertisements() {
        return limitedAdvertisements;
    }

    /** Of {@link #limitedAdvertisements}, newer copies refused because their sequence was beyond the clock's window. */
    public long sequencesBeyondWindow() {
        return admission.beyondCeiling();
    }

    /** Origins dropped, before they expired, to make room in a full database for a new one: see {@link RoutingConfig#maxOrigins}. */
    public long evictedOrigins() {
        return evicted;
    }

    /** Updates and acks ignored because their sender was not an up neighbour. */
    /** Signatures of link state verified, and how many of them failed (zero without a signer). */
    public long signaturesVerified() {
        return signatures.verified();
    }

    public long signaturesFailed() {
        return signatures.failed();
    }

    public long ignoredMessages() {
        return ignoredMessages;
    }

    /** Advertisements and extension records sent again because a neighbour had not acknowledged them in time. */
    public long retransmissions() {
        return retransmissions;
    }

    /** Advertisements sent to some neighbour and not yet acknowledged, over all neighbours. */
    public int unacknowledged() {
        int count = 0;
        for (FloodNeighbour n : neighbours.values()) {
            count += n.unacknowledged();
        }
        return count;
    }

    private void requireOther(NodeId neighbour) {
        if (self.equals(Objects.requireNonNull(neighbour, "neighbour"))) {
            throw new IllegalArgumentException("a node is not its own neighbour: " + neighbour);
        }
    }

    private void receive(FloodNeighbour from, LinkStateAdvertisement a, long nowNanos) {
        NodeId origin = a.origin();
        LinkStateAck.AckEntry ack = new LinkStateAck.AckEntry(origin, a.sequence());
        long ageNanos = a.ageMillis() * 1_000_000L;
        if (LinkStateCodec.UPDATE_HEADER_BYTES + LinkStateCodec.encodedSize(a) > config.maxUpdateBodyBytes()) {
            from.acks.add(ack);
            reject(from, DropReason.OVERSIZED);
            return;
        }
        if (ageNanos >= maxAgeNanos) {
            from.acks.add(ack);
            reject(from, DropReason.STALE);
            return;
        }
        LinkStateAdvertisement held = database.current(origin);
        boolean newer = held == null || a.sequence() > held.sequence()
                || (a.sequence() == held.sequence() && LinkStateAdvertisement.compareContent(a, held) > 0);
        if (newer && signatures.checking() && !admission.mayVerify(from.id, origin, a.sequence(), nowNanos)) {
            // Not acknowledged, as a copy over the limit below: an honest neighbour resends it later. As
            // there, the sender needs none of ours.
            from.acknowledged(origin, a.sequence());
            from.outgoing.remove(origin);
            reject(from, DropReason.LINK_STATE_LIMIT);
            return;
        }
        if (newer && !signatures.verify(a)) {
            // Acknowledged: an honest neighbour that relays what this node cannot verify stops resending it.
            from.acks.add(ack);
            admission.checkedInVain(from.id, origin, nowNanos);
            reject(from, DropReason.FORGED_LINK_STATE);
            return;
        }
        if (origin.equals(self)) {
            receiveOwn(from, a, held, ack, nowNanos);
            return;
        }
        if (newer) {
            NodeId evict = null;
            if (held == null && database.size() >= config.maxOrigins()) {
                // Made-up origins are unreachable, so they cannot keep a new real origin out for maxAge.
                evict = database.firstExpiring(table::knownUnreachable);
                if (evict == null) {
                    from.acks.add(ack);
                    admission.checkedInVain(from.id, origin, nowNanos);
                    reject(from, DropReason.LINK_STATE_LIMIT);
                    return;
                }
            }
            // The sender has this version or a newer one: it needs none of ours, even if we refuse it.
            from.acknowledged(origin, a.sequence());
            from.outgoing.remove(origin);
            if (!admission.admit(from.id, origin, a.sequence(), nowNanos)) {
                admission.checkedInVain(from.id, origin, nowNanos);
                reject(from, DropReason.LINK_STATE_LIMIT);
                return;
            }
            from.acks.add(ack);
            if (evict != null) {
                evicted++;
                admission.forgetOrigin(evict);
                graphChanged |= !database.remove(evict).links().isEmpty();
                extensions.originGone(evict);
            }
            // An origin creates each version after the one before, so a newer version never expires
            // first; one that claims to (a forged copy aged near maxAge) would otherwise vanish before it
            // reached its origin, taking the real one with it until the origin's next refresh.
            long originatedAt = nowNanos - ageNanos;
            if (held != null) {
                originatedAt = Math.max(originatedAt, database.originatedAtNanos(origin));
            }
            install(a, originatedAt);
            for (FloodNeighbour n : neighbours.values()) {
                if (n != from) {
                    n.outgoing.add(origin);
                }
            }
        } else if (a.sameVersionAs(held)) {
            from.acks.add(ack);
            from.acknowledged(origin, a.sequence());
            from.outgoing.remove(origin);
        } else {
            // Older, or a different copy with the same sequence that loses to ours: the sender gets ours.
            from.acks.add(ack);
            from.outgoing.add(origin);
        }
    }

    /** A copy of our own advertisement came back: a newer or different one is from a previous life or forged. */
    private void receiveOwn(FloodNeighbour from, LinkStateAdvertisement a, LinkStateAdvertisement mine,
            LinkStateAck.AckEntry ack, long nowNanos) {
        if (a.sequence() > mine.sequence() || (a.sequence() == mine.sequence() && !a.sameVersionAs(mine))) {
            if (!admission.admit(from.id, null, a.sequence(), nowNanos)) {
                reject(from, DropReason.LINK_STATE_LIMIT);
                return;
            }
            from.acks.add(ack);
            own.seen(a.sequence());
            originate(nowNanos);
        } else if (a.sequence() < mine.sequence()) {
            from.acks.add(ack);
            from.outgoing.add(self);
        } else {
            from.acks.add(ack);
            from.acknowledged(self, a.sequence());
        }
    }

    private void reject(FloodNeighbour from, DropReason reason) {
        rejectedAdvertisements++;
        if (reason == DropReason.LINK_STATE_LIMIT) {
            limitedAdvertisements++;
        }
        out.advertisementRejected(from.id, reason);
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
        int leftOutBefore = own.linksLeftOut();
        install(signatures.sign(own.originate(neighbours.values(), nowNanos)), nowNanos);
        if (own.linksLeftOut() != leftOutBefore) {
            out.linksLeftOut(own.linksLeftOut(), neighbours.size());
        }
        for (FloodNeighbour n : neighbours.values()) {
            n.outgoing.add(self);
        }
    }

    /**
     * Sends what this call produced, recomputes routes if the graph changed and the rate limit allows,
     * then reports the extension records the call changed.
     */
    private void finish(long nowNanos) {
        for (FloodNeighbour n : neighbours.values()) {
            n.sendAcks(out, config.maxUpdateBodyBytes());
            n.sendUpdates(out, database, nowNanos, pacingNanos, retransmitNanos, config.maxUpdateBodyBytes());
        }
        extensions.finish(nowNanos);
        if (graphChanged && nowNanos - lastRecomputeNanos >= minRecomputeNanos) {
            recompute(nowNanos);
        }
        // Last, when the router is consistent again: a listener may publish in answer.
        extensions.deliverChanges();
    }

    private void recompute(long nowNanos) {
        RoutingTable next = RoutingTable.compute(self, database.advertisements(), config, table);
        recomputations++;
        lastRecomputeNanos = nowNanos;
        graphChanged = false;
        boolean changed = !next.sameRoutesAs(table);
        table = next;
        trees = new SourceTrees(next);
        if (changed) {
            out.routesChanged(nowNanos);
        }
    }
}
