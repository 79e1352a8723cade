package net.hopwise.overlay.routing;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.DropReason;

/**
 * The extension half of a {@link Router}: every origin's opaque records per kind, flooded, ordered,
 * aged and collected like advertisements, and never a cause of route computation (nothing here
 * touches the graph). Apart from the router because records have their own key, bounds and
 * origination, while the router owns the neighbours' lifecycle and the origins' advertisements.
 *
 * <p><b>Ordering.</b> One counter numbers all of this node's versions, starting at the same wall-clock
 * sequence base as its advertisements, so a restart starts above its previous life. A newer copy is
 * admitted by an {@link AdvertisementAdmission} of its own (the same clock window and per-interval
 * limits, counted apart from advertisements, so records cannot use up the budget link state needs).
 * A copy of this node's own record that is newer, or as new but different, is a previous life's or a
 * forgery: the node takes its sequence and re-publishes what it holds above it (a withdrawal if it
 * holds nothing), so its real state wins everywhere.
 *
 * <p><b>Collection.</b> A record is held only while its origin's advertisement is: one of an origin
 * not (yet) held is not acked, and its sender resends it (floodRetransmitInterval later the
 * advertisement, flooded at the same time, is there); when an origin's advertisement expires or is
 * evicted, its records go with it. Each entry also expires maxAge after its origin created it; the
 * node re-publishes its live records every refreshInterval.
 *
 * <p><b>Refresh.</b> A refresh floods the same version again (same sequence, same signature) with its
 * age restarted at 0, instead of a new version: signing one costs about 0.7 ms with Ed25519 and every
 * other node verifies it, which at 2048 records a node was seconds of CPU at every node per refresh
 * interval for nothing new. A node takes a copy of the version it holds as a refresh when the copy
 * says its origin sent it at least half a refresh interval after the moment the node holds (less
 * would be the same refresh come by a slower path), restarts the entry's life there and floods it on.
 * The age is not signed, so a neighbour could keep a version alive by sending it with age 0 again;
 * it cannot change it, and the entry still goes when its origin's (signed) advertisement goes.
 *
 * <p><b>Bounds.</b> A record larger than maxExtensionBytes, or a new kind of an origin that already
 * holds maxExtensionsPerOrigin entries (withdrawals count until they age out), is refused for good
 * with {@link DropReason#EXTENSION_LIMIT} and acked; local publishes beyond either bound throw.
 *
 * <p>Just over 400 lines because own-record refresh (the kept next deadline, refreshing a version
 * without signing it again) works on the same per-origin entries as installing and aging; the
 * per-neighbour part of flooding (window, retransmission) is in {@link ExtensionNeighbour}.
 */
final class LinkStateExtensions {
    private final NodeId self;
    private final Signatures signatures;
    private final RoutingConfig config;
    private final RouterOutput out;
    private final LinkStateDatabase origins;
    private final ExtensionDatabase database;
    private final AdvertisementAdmission admission;
    private final TreeMap<NodeId, ExtensionNeighbour> neighbours = new TreeMap<>();
    private final long maxAgeNanos;
    private final long refreshNanos;
    /**
     * No own live record is due for a refresh before this (it may be earlier than the first that is):
     * asked after every input of the node, where a walk of a node's thousands of records was most of
     * the cost of a membership change.
     */
    private long nextRefreshNanos = Long.MAX_VALUE;
    private long ownRecordWalks;
    private long sequence;
    /** Changes made by the current router call, reported at its end; see {@link #deliverChanges}. */
    private final ArrayDeque<Change> changes = new ArrayDeque<>();
    private long rejected;
    private long deferred;

    private record Change(NodeId origin, int kind, byte[] record) {}

    LinkStateExtensions(NodeId self, RoutingConfig config, RouterOutput out, LinkStateDatabase origins, long sequenceBase,
            long nowNanos) {
        this(self, config, out, origins, sequenceBase, nowNanos, new Signatures(null));
    }

    LinkStateExtensions(NodeId self, RoutingConfig config, RouterOutput out, LinkStateDatabase origins, long sequenceBase,
            long nowNanos, Signatures signatures) {
        this.signatures = signatures;
        this.self = self;
        this.config = config;
        this.out = out;
        this.origins = origins;
        maxAgeNanos = config.maxAge().toNanos();
        refreshNanos = config.refreshInterval().toNanos();
        database = new ExtensionDatabase(maxAgeNanos);
        admission = new AdvertisementAdmission(config, sequenceBase, nowNanos);
        sequence = sequenceBase - 1;
    }

    void publish(int kind, byte[] record, long nowNanos) {
        ExtensionRecord.requireKind(kind);
        if (record != null && record.length > maxRecordBytes()) {
            throw new IllegalArgumentException("an extension record holds at most " + maxRecordBytes()
                    + " bytes (RoutingConfig.maxExtensionBytes, less a signature's room where link state is signed): "
                    + record.length);
        }
        ExtensionDatabase.Key key = new ExtensionDatabase.Key(self, kind);
        ExtensionRecord held = database.current(key);
        if (record == null ? held == null || held.withdrawn() : held != null && Arrays.equals(held.data(), record)) {
            return;
        }
        if (held == null && database.count(self) >= config.maxExtensionsPerOrigin()) {
            throw new IllegalArgumentException("a node holds at most " + config.maxExtensionsPerOrigin()
                    + " extension kinds, withdrawn ones included until they age out (RoutingConfig.maxExtensionsPerOrigin)");
        }
        byte[] copy = record == null ? null : record.clone();
        originate(key, copy, nowNanos);
        changed(self, kind, copy == null ? null : copy.clone());
    }

    /** The largest record this node publishes: the configured bound, less a signature where one must fit too. */
    int maxRecordBytes() {
        return Math.min(config.maxExtensionBytes(), config.maxUpdateBodyBytes() - ExtensionCodec.UPDATE_HEADER_BYTES
                - ExtensionCodec.RECORD_HEADER_BYTES - signatures.overheadBytes());
    }

    /** Every live record of {@code kind}, this node's included, as fresh copies. */
    Map<NodeId, byte[]> records(int kind) {
        ExtensionRecord.requireKind(kind);
        Map<NodeId, byte[]> copies = new LinkedHashMap<>();
        for (ExtensionRecord r : database.live(kind)) {
            copies.put(r.origin(), r.data().clone());
        }
        return copies;
    }

    void neighbourUp(NodeId neighbour) {
        ExtensionNeighbour n = neighbours.computeIfAbsent(neighbour, ExtensionNeighbour::new);
        n.outgoing.addAll(database.keys());
    }

    void neighbourDown(NodeId neighbour) {
        if (neighbours.remove(neighbour) != null) {
            admission.forgetNeighbour(neighbour);
        }
    }

    /** Whether {@code neighbour} is up here; the router counts what comes from others. */
    boolean isNeighbour(NodeId neighbour) {
        return neighbours.containsKey(neighbour);
    }

    void onUpdate(NodeId from, ExtensionUpdate update, long nowNanos) {
        ExtensionNeighbour n = neighbours.get(from);
        n.heard();
        for (ExtensionRecord r : update.records()) {
            receive(n, r, nowNanos);
        }
    }

    void onAck(NodeId from, ExtensionAck ack) {
        ExtensionNeighbour n = neighbours.get(from);
        n.heard();
        for (ExtensionAck.Entry e : ack.entries()) {
            ExtensionDatabase.Key key = new ExtensionDatabase.Key(e.origin(), e.kind());
            n.acknowledged(key, e.sequence());
            ExtensionRecord held = database.current(key);
            if (held != null && held.sequence() <= e.sequence()) {
                n.outgoing.remove(key);
            }
        }
    }

    /** The origin's advertisement is gone: so are its records. */
    void originGone(NodeId origin) {
        for (ExtensionRecord r : database.removeOrigin(origin)) {
            if (!r.withdrawn()) {
                changed(origin, r.kind(), null);
            }
        }
        admission.forgetOrigin(origin);
    }

    /** Ages out, refreshes this node's live records, and queues due retransmissions; returns how many. */
    int onTimer(long nowNanos) {
        for (ExtensionRecord r : database.expire(nowNanos)) {
            if (database.count(r.origin()) == 0) {
                admission.forgetOrigin(r.origin());
            }
            if (!r.withdrawn()) {
                changed(r.origin(), r.kind(), null);
            }
        }
        if (nowNanos >= nextRefreshNanos) {
            refreshOwn(nowNanos);
        }
        int due = 0;
        for (ExtensionNeighbour n : neighbours.values()) {
            due += n.requeueDue(nowNanos);
        }
        return due;
    }

    long nextDeadlineNanos() {
        // Asked after every input of the node: it must not depend on how many records there are.
        long deadline = Math.min(database.nextExpiryNanos(), nextRefreshNanos);
        for (ExtensionNeighbour n : neighbours.values()) {
            if (!n.idle()) {
                deadline = Math.min(deadline, n.nextDeadlineNanos(ExtensionNeighbour.WINDOW_BYTES));
            }
        }
        return deadline;
    }

    /** Floods every own live record due for a refresh again, unchanged and aged 0; finds the next one due. */
    private void refreshOwn(long nowNanos) {
        ownRecordWalks++;
        long next = Long.MAX_VALUE;
        for (ExtensionRecord r : List.copyOf(database.of(self))) {
            if (r.withdrawn()) {
                continue;
            }
            ExtensionDatabase.Key key = new ExtensionDatabase.Key(self, r.kind());
            long due = database.originatedAtNanos(key) + refreshNanos;
            if (nowNanos >= due) {
                database.install(r, nowNanos);
                for (ExtensionNeighbour n : neighbours.values()) {
                    n.outgoing.add(key);
                }
                due = nowNanos + refreshNanos;
            }
            next = Math.min(next, due);
        }
        nextRefreshNanos = next;
    }

    /** Sends the acks and updates this call produced. */
    void finish(long nowNanos) {
        long pacing = config.floodPacingInterval().toNanos();
        long retransmit = config.floodRetransmitInterval().toNanos();
        for (ExtensionNeighbour n : neighbours.values()) {
            n.sendAcks(out, config.maxUpdateBodyBytes());
            n.sendUpdates(out, database, nowNanos, pacing, retransmit, refreshNanos, config.maxUpdateBodyBytes(),
                    ExtensionNeighbour.WINDOW_BYTES);
        }
    }

    /**
     * Reports the changes the current call made, in order, once its packets have left: a listener may
     * then publish in answer (a nested call, whose own changes are reported here too) without meeting
     * the router halfway through an update.
     */
    void deliverChanges() {
        for (Change c = changes.poll(); c != null; c = changes.poll()) {
            out.extensionChanged(c.origin(), c.kind(), c.record());
        }
    }

    /** Records refused (counted and reported), for any reason but a sender that is not an up neighbour. */
    long rejected() {
        return rejected;
    }

    /** Records not taken for now because their origin's advertisement was not held; their senders resend them. */
    long deferred() {
        return deferred;
    }

    int unacknowledged() {
        int count = 0;
        for (ExtensionNeighbour n : neighbours.values()) {
            count += n.unacknowledged();
        }
        return count;
    }

    /** How often this node's own records were walked for their refresh deadlines. */
    long ownRecordWalks() {
        return ownRecordWalks;
    }

    /** How many entries are held, withdrawals included. */
    int size() {
        return database.size();
    }

    /** See {@link Router#vainCheckOrigins}. */
    int vainCheckOrigins() {
        return admission.vainCheckOrigins();
    }

    private void receive(ExtensionNeighbour from, ExtensionRecord r, long nowNanos) {
        ExtensionDatabase.Key key = new ExtensionDatabase.Key(r.origin(), r.kind());
        ExtensionAck.Entry ack = new ExtensionAck.Entry(r.origin(), r.kind(), r.sequence());
        long ageNanos = r.ageMillis() * 1_000_000L;
        if (r.data() != null && r.data().length > config.maxExtensionBytes()) {
            from.acks.add(ack);
            reject(from, DropReason.EXTENSION_LIMIT);
            return;
        }
        if (ageNanos >= maxAgeNanos) {
            from.acks.add(ack);
            reject(from, DropReason.STALE);
            return;
        }
        ExtensionRecord held = database.current(key);
        boolean newer = held == null || r.sequence() > held.sequence()
                || (r.sequence() == held.sequence() && ExtensionRecord.compareContent(r, held) > 0);
        LinkStateAdvertisement originAd = origins.current(r.origin());
        if (originAd == null) {
            // Unknown origin (never this node, which holds its own advertisement): wait for its advertisement,
            // which also names it for the signature.
            deferred++;
            return;
        }
        if (newer && !r.origin().equals(self) && held == null
                && database.count(r.origin()) >= config.maxExtensionsPerOrigin()) {
            // Refused whoever signed it, so before the check: an origin's own genuine records of kinds
            // beyond the limit, replayed, would otherwise cost a check each.
            from.acks.add(ack);
            reject(from, DropReason.EXTENSION_LIMIT);
            return;
        }
        if (newer && signatures.checking() && !admission.mayVerify(from.id, r.origin(), r.sequence(), nowNanos)) {
            from.acknowledged(key, r.sequence());
            from.outgoing.remove(key);
            reject(from, DropReason.LINK_STATE_LIMIT);
            return;
        }
        if (newer && !signatures.verify(r, originAd.originName())) {
            from.acks.add(ack);
            admission.checkedInVain(from.id, r.origin(), nowNanos);
            reject(from, DropReason.FORGED_LINK_STATE);
            return;
        }
        if (r.origin().equals(self)) {
            receiveOwn(from, r, held, key, ack, nowNanos);
            return;
        }
        if (newer) {
            from.acknowledged(key, r.sequence());
            from.outgoing.remove(key);
            if (!admission.admit(from.id, r.origin(), r.sequence(), nowNanos)) {
                admission.checkedInVain(from.id, r.origin(), nowNanos);
                reject(from, DropReason.LINK_STATE_LIMIT);
                return;
            }
            from.acks.add(ack);
            // As for advertisements: a newer version never expires before the one it replaces.
            long originatedAt = nowNanos - ageNanos;
            if (held != null) {
                originatedAt = Math.max(originatedAt, database.originatedAtNanos(key));
            }
            database.install(r, originatedAt);
            for (ExtensionNeighbour n : neighbours.values()) {
                if (n != from) {
                    n.outgoing.add(key);
                }
            }
            boolean wasLive = held != null && !held.withdrawn();
            if ((wasLive || !r.withdrawn()) && (held == null || !Arrays.equals(held.data(), r.data()))) {
                changed(r.origin(), r.kind(), r.withdrawn() ? null : r.data().clone());
            }
        } else if (r.sameVersionAs(held)) {
            from.acks.add(ack);
            from.acknowledged(key, r.sequence());
            from.outgoing.remove(key);
            long sentAt = nowNanos - ageNanos;
            if (sentAt - database.originatedAtNanos(key) >= refreshNanos / 2) {
                database.install(held, sentAt);
                for (ExtensionNeighbour n : neighbours.values()) {
                    if (n != from) {
                        n.outgoing.add(key);
                    }
                }
            }
        } else {
            from.acks.add(ack);
            from.outgoing.add(key);
        }
    }

    private void receiveOwn(ExtensionNeighbour from, ExtensionRecord r, ExtensionRecord mine, ExtensionDatabase.Key key,
            ExtensionAck.Entry ack, long nowNanos) {
        boolean beatsMine = mine == null
                ? r.sequence() > sequence || !r.withdrawn()
                : r.sequence() > mine.sequence() || (r.sequence() == mine.sequence() && !r.sameVersionAs(mine));
        if (beatsMine) {
            if (!admission.admit(from.id, null, r.sequence(), nowNanos)) {
                reject(from, DropReason.LINK_STATE_LIMIT);
                return;
            }
            from.acks.add(ack);
            sequence = Math.max(sequence, r.sequence());
            if (mine != null || !r.withdrawn()) {
                // What this node holds wins back; a record it does not hold is withdrawn everywhere.
                originate(key, mine == null ? null : mine.data(), nowNanos);
            }
        } else if (mine != null && r.sequence() < mine.sequence()) {
            from.acks.add(ack);
            from.outgoing.add(key);
        } else {
            from.acks.add(ack);
            from.acknowledged(key, r.sequence());
        }
    }

    private void changed(NodeId origin, int kind, byte[] record) {
        changes.add(new Change(origin, kind, record));
    }

    private void reject(ExtensionNeighbour from, DropReason reason) {
        rejected++;
        out.advertisementRejected(from.id, reason);
    }

    /** Installs and floods a new version of this node's entry of {@code key}. */
    private void originate(ExtensionDatabase.Key key, byte[] data, long nowNanos) {
        sequence++;
        database.install(signatures.sign(new ExtensionRecord(self, key.kind(), sequence, 0, data)), nowNanos);
        for (ExtensionNeighbour n : neighbours.values()) {
            n.outgoing.add(key);
        }
        if (data != null) {
            nextRefreshNanos = Math.min(nextRefreshNanos, nowNanos + refreshNanos);
        }
    }
}
