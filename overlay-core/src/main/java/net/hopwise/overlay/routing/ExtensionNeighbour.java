package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * The reliable flooding of extension records towards one up neighbour: what it has not acknowledged,
 * what waits for pacing, and the acks owed to it. The extension half of {@link FloodNeighbour}, keyed
 * by (origin, kind) instead of origin.
 *
 * <p>A neighbour of a version without extensions drops them as an unknown packet type and never
 * answers. Until a neighbour has sent one extension packet (an update or an ack), each round of
 * retransmissions to it doubles the interval, up to the refresh interval, so such a neighbour costs
 * one packet per refresh interval instead of one per retransmission interval; the first extension
 * packet it sends restores the normal interval.
 */
final class ExtensionNeighbour {
    /** Enough doublings to pass any refresh interval, few enough that the shift cannot overflow. */
    private static final int MAX_SILENT_ROUNDS = 20;

    private record Unacked(long sequence, long retransmitAtNanos) {}

    final NodeId id;
    private final LinkedHashMap<ExtensionDatabase.Key, Unacked> unacked = new LinkedHashMap<>();
    /** Keys whose current entry is to be sent when pacing allows. */
    final LinkedHashSet<ExtensionDatabase.Key> outgoing = new LinkedHashSet<>();
    /** Acks to send at the end of the current call; empty between calls. */
    final LinkedHashSet<ExtensionAck.Entry> acks = new LinkedHashSet<>();
    private long sendAllowedAtNanos = Long.MIN_VALUE;
    private boolean heard;
    private int silentRounds;

    ExtensionNeighbour(NodeId id) {
        this.id = id;
    }

    /** The neighbour sent an extension packet: it speaks extensions. */
    void heard() {
        if (!heard) {
            heard = true;
            silentRounds = 0;
            // Sent again now, on the normal interval: the unacked map stays in retransmission order.
            outgoing.addAll(unacked.keySet());
            unacked.clear();
        }
    }

    void acknowledged(ExtensionDatabase.Key key, long sequence) {
        Unacked u = unacked.get(key);
        if (u != null && u.sequence() <= sequence) {
            unacked.remove(key);
        }
    }

    int unacknowledged() {
        return unacked.size();
    }

    /** Nothing to send, nothing waiting for an acknowledgement: no deadline. */
    boolean idle() {
        return unacked.isEmpty() && outgoing.isEmpty();
    }

    long nextDeadlineNanos() {
        Iterator<Unacked> first = unacked.values().iterator();
        long retransmit = first.hasNext() ? first.next().retransmitAtNanos() : Long.MAX_VALUE;
        return outgoing.isEmpty() ? retransmit : Math.min(retransmit, sendAllowedAtNanos);
    }

    /** Queues every entry whose retransmission is due; returns how many. */
    int requeueDue(long nowNanos) {
        int due = 0;
        for (Iterator<Map.Entry<ExtensionDatabase.Key, Unacked>> it = unacked.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<ExtensionDatabase.Key, Unacked> e = it.next();
            if (e.getValue().retransmitAtNanos() > nowNanos) {
                break;
            }
            it.remove();
            outgoing.add(e.getKey());
            due++;
        }
        if (due > 0 && !heard && silentRounds < MAX_SILENT_ROUNDS) {
            silentRounds++;
        }
        return due;
    }

    void sendAcks(RouterOutput out, int maxBodyBytes) {
        if (acks.isEmpty()) {
            return;
        }
        int perPacket = (maxBodyBytes - ExtensionCodec.ACK_HEADER_BYTES) / ExtensionCodec.ACK_ENTRY_BYTES;
        List<ExtensionAck.Entry> batch = new ArrayList<>();
        for (ExtensionAck.Entry e : acks) {
            batch.add(e);
            if (batch.size() == perPacket) {
                out.sendExtensionAck(id, new ExtensionAck(batch));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            out.sendExtensionAck(id, new ExtensionAck(batch));
        }
        acks.clear();
    }

    /**
     * Sends the current entry of every queued key, aged to now, packed into as few packets as fit
     * {@code maxBodyBytes}, unless pacing holds them back.
     */
    void sendUpdates(RouterOutput out, ExtensionDatabase database, long nowNanos, long pacingNanos, long retransmitNanos,
            long maxRetransmitNanos, int maxBodyBytes) {
        if (outgoing.isEmpty() || nowNanos < sendAllowedAtNanos) {
            return;
        }
        sendAllowedAtNanos = nowNanos + pacingNanos;
        long interval = heard ? retransmitNanos : Math.min(maxRetransmitNanos, retransmitNanos << silentRounds);
        List<ExtensionRecord> batch = new ArrayList<>();
        int size = ExtensionCodec.UPDATE_HEADER_BYTES;
        for (ExtensionDatabase.Key key : outgoing) {
            ExtensionRecord held = database.current(key);
            unacked.remove(key);
            if (held == null) {
                continue;
            }
            long ageNanos = Math.max(0, nowNanos - database.originatedAtNanos(key));
            ExtensionRecord copy = held.withAgeMillis((int) Math.min(Integer.MAX_VALUE, (ageNanos + 999_999) / 1_000_000));
            int s = ExtensionCodec.encodedSize(copy);
            if (size + s > maxBodyBytes) {
                out.sendExtensionUpdate(id, new ExtensionUpdate(batch));
                batch.clear();
                size = ExtensionCodec.UPDATE_HEADER_BYTES;
            }
            batch.add(copy);
            size += s;
            unacked.put(key, new Unacked(copy.sequence(), nowNanos + interval));
        }
        if (!batch.isEmpty()) {
            out.sendExtensionUpdate(id, new ExtensionUpdate(batch));
        }
        outgoing.clear();
    }
}
