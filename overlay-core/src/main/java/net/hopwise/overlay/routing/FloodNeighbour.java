package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * What a {@link Router} knows of one up neighbour, and the reliable flooding towards it: what it has
 * not acknowledged, what waits for pacing, and the acks owed to it. Apart from the router because it
 * is the per-link half of flooding (packing, pacing, retransmission), while the router decides what
 * is installed and who gets it.
 */
final class FloodNeighbour {
    /** An advertisement sent to the neighbour and not yet acknowledged. */
    private record Unacked(long sequence, long retransmitAtNanos) {}

    final NodeId id;
    LinkCost cost;
    /** In order of retransmission time, because each is re-inserted when sent. */
    private final LinkedHashMap<NodeId, Unacked> unacked = new LinkedHashMap<>();
    /** Origins whose current advertisement is to be sent when pacing allows. */
    final LinkedHashSet<NodeId> outgoing = new LinkedHashSet<>();
    /** Pacing: no update leaves for this neighbour before this. */
    private long sendAllowedAtNanos = Long.MIN_VALUE;
    /** Acks to send at the end of the current call; empty between calls. */
    final LinkedHashSet<LinkStateAck.AckEntry> acks = new LinkedHashSet<>();

    FloodNeighbour(NodeId id, LinkCost cost) {
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

    /** Advertisements sent and not yet acknowledged. */
    int unacknowledged() {
        return unacked.size();
    }

    /** When this neighbour next needs the router: a paced send or a retransmission; {@link Long#MAX_VALUE} if never. */
    long nextDeadlineNanos() {
        // Asked after every input of the node: nothing unacknowledged is the common case, and costs no iterator.
        long retransmit = unacked.isEmpty() ? Long.MAX_VALUE : unacked.values().iterator().next().retransmitAtNanos();
        return outgoing.isEmpty() ? retransmit : Math.min(retransmit, sendAllowedAtNanos);
    }

    /** Queues every advertisement whose retransmission is due; returns how many. */
    int requeueDue(long nowNanos) {
        int due = 0;
        // Queued, an advertisement leaves the unacked map until it is sent, so a send held back by
        // pacing is not also a retransmission deadline that has already passed.
        for (Iterator<Map.Entry<NodeId, Unacked>> it = unacked.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<NodeId, Unacked> e = it.next();
            if (e.getValue().retransmitAtNanos() > nowNanos) {
                break;
            }
            it.remove();
            outgoing.add(e.getKey());
            due++;
        }
        return due;
    }

    /** Sends the acks owed, packed into as few packets as fit {@code maxBodyBytes}. */
    void sendAcks(RouterOutput out, int maxBodyBytes) {
        if (acks.isEmpty()) {
            return;
        }
        int perPacket = (maxBodyBytes - LinkStateCodec.ACK_HEADER_BYTES) / LinkStateCodec.ACK_ENTRY_BYTES;
        List<LinkStateAck.AckEntry> batch = new ArrayList<>();
        for (LinkStateAck.AckEntry e : acks) {
            batch.add(e);
            if (batch.size() == perPacket) {
                out.sendAck(id, new LinkStateAck(batch));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            out.sendAck(id, new LinkStateAck(batch));
        }
        acks.clear();
    }

    /**
     * Sends the current version of every queued origin, aged to now, packed into as few packets as fit
     * {@code maxBodyBytes}, unless pacing holds them back.
     */
    void sendUpdates(RouterOutput out, LinkStateDatabase database, long nowNanos, long pacingNanos, long retransmitNanos,
            int maxBodyBytes) {
        if (outgoing.isEmpty() || nowNanos < sendAllowedAtNanos) {
            return;
        }
        sendAllowedAtNanos = nowNanos + pacingNanos;
        List<LinkStateAdvertisement> batch = new ArrayList<>();
        int size = LinkStateCodec.UPDATE_HEADER_BYTES;
        for (NodeId origin : outgoing) {
            LinkStateAdvertisement held = database.current(origin);
            // Re-inserting keeps the map in retransmission order.
            unacked.remove(origin);
            if (held == null) {
                continue;
            }
            LinkStateAdvertisement copy = held.withAgeMillis(ageMillis(database, origin, nowNanos));
            int s = LinkStateCodec.encodedSize(copy);
            if (size + s > maxBodyBytes) {
                out.sendUpdate(id, new LinkStateUpdate(batch));
                batch.clear();
                size = LinkStateCodec.UPDATE_HEADER_BYTES;
            }
            batch.add(copy);
            size += s;
            unacked.put(origin, new Unacked(copy.sequence(), nowNanos + retransmitNanos));
        }
        if (!batch.isEmpty()) {
            out.sendUpdate(id, new LinkStateUpdate(batch));
        }
        outgoing.clear();
    }

    /** The age to write: rounded up, so a copy never outlives maxAge because of rounding. */
    private static int ageMillis(LinkStateDatabase database, NodeId origin, long nowNanos) {
        long ageNanos = Math.max(0, nowNanos - database.originatedAtNanos(origin));
        return (int) Math.min(Integer.MAX_VALUE, (ageNanos + 999_999) / 1_000_000);
    }
}
