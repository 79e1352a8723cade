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
 *
 * <p><b>Window.</b> At most about {@code windowBytes} of records are sent and not yet acknowledged at
 * any time; the rest wait, queued, until acks open the window (and pacing allows). A record due for
 * retransmission keeps its place in the window and is sent before any new one, so that a neighbour
 * that stopped acknowledging gets the same window again, not the next one. A node holding
 * thousands of records (a multicast node with 150,000 groups publishes 2048) would otherwise send
 * them all at once to a neighbour that has just come up, and again at every retransmission round:
 * thousands of datagrams, more than the neighbour's socket can buffer, so most were lost in the
 * kernel, where no one counts them, and every round lost as many again.
 */
final class ExtensionNeighbour {
    /**
     * Record bytes sent to one neighbour and not yet acknowledged, at most: about 48 full datagrams,
     * some 110 KB of a receiving socket's buffer once the kernel's overhead is counted, so that a node
     * with 32 neighbours all sending at once still fits the default 4 MiB; at 10 ms pacing it still
     * carries 6 MB/s a link, a node's 2048 full records in a fifth of a second.
     */
    static final long WINDOW_BYTES = 64 * 1024;

    /** Enough doublings to pass any refresh interval, few enough that the shift cannot overflow. */
    private static final int MAX_SILENT_ROUNDS = 20;

    private record Unacked(long sequence, long retransmitAtNanos, int bytes) {}

    final NodeId id;
    /** Sent and not acknowledged, in retransmission order. */
    private final LinkedHashMap<ExtensionDatabase.Key, Unacked> unacked = new LinkedHashMap<>();
    /** Sent, not acknowledged, and due for retransmission: still in the window, sent first. */
    private final LinkedHashMap<ExtensionDatabase.Key, Unacked> resend = new LinkedHashMap<>();
    /** Keys whose current entry is to be sent when pacing and the window allow. */
    final LinkedHashSet<ExtensionDatabase.Key> outgoing = new LinkedHashSet<>();
    /** Acks to send at the end of the current call; empty between calls. */
    final LinkedHashSet<ExtensionAck.Entry> acks = new LinkedHashSet<>();
    private long sendAllowedAtNanos = Long.MIN_VALUE;
    /** The encoded size of the records in {@link #unacked} and {@link #resend}: what the window holds. */
    private long inFlightBytes;
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
            // Sent again now, on the normal interval, oldest first.
            resend.putAll(unacked);
            unacked.clear();
        }
    }

    void acknowledged(ExtensionDatabase.Key key, long sequence) {
        Unacked u = unacked.get(key);
        if (u == null) {
            u = resend.get(key);
        }
        if (u != null && u.sequence() <= sequence) {
            forget(key);
        }
    }

    private void forget(ExtensionDatabase.Key key) {
        Unacked u = unacked.remove(key);
        if (u == null) {
            u = resend.remove(key);
        }
        if (u != null) {
            inFlightBytes -= u.bytes();
        }
    }

    /** Bytes of records sent and not yet acknowledged. */
    long inFlightBytes() {
        return inFlightBytes;
    }

    int unacknowledged() {
        return unacked.size() + resend.size();
    }

    /** Nothing to send, nothing waiting for an acknowledgement: no deadline. */
    boolean idle() {
        return unacked.isEmpty() && resend.isEmpty() && outgoing.isEmpty();
    }

    long nextDeadlineNanos(long windowBytes) {
        Iterator<Unacked> first = unacked.values().iterator();
        long retransmit = first.hasNext() ? first.next().retransmitAtNanos() : Long.MAX_VALUE;
        // New records wait for acks while the window is closed, not for pacing.
        boolean sendable = !resend.isEmpty() || !outgoing.isEmpty() && inFlightBytes < windowBytes;
        return sendable ? Math.min(retransmit, sendAllowedAtNanos) : retransmit;
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
            resend.put(e.getKey(), e.getValue());
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
     * Unless pacing holds them back, sends the current entry of every key due for retransmission,
     * then of queued keys in order while the window is open (it may pass {@code windowBytes} by one
     * record), aged to now and packed into as few packets as fit {@code maxBodyBytes}; the others
     * stay queued.
     */
    void sendUpdates(RouterOutput out, ExtensionDatabase database, long nowNanos, long pacingNanos, long retransmitNanos,
            long maxRetransmitNanos, int maxBodyBytes, long windowBytes) {
        if (nowNanos < sendAllowedAtNanos || resend.isEmpty() && (outgoing.isEmpty() || inFlightBytes >= windowBytes)) {
            return;
        }
        sendAllowedAtNanos = nowNanos + pacingNanos;
        long interval = heard ? retransmitNanos : Math.min(maxRetransmitNanos, retransmitNanos << silentRounds);
        Packer packer = new Packer(out, maxBodyBytes);
        for (ExtensionDatabase.Key key : List.copyOf(resend.keySet())) {
            outgoing.remove(key);
            send(key, database, nowNanos, interval, packer);
        }
        for (Iterator<ExtensionDatabase.Key> it = outgoing.iterator(); it.hasNext() && inFlightBytes < windowBytes; ) {
            ExtensionDatabase.Key key = it.next();
            it.remove();
            send(key, database, nowNanos, interval, packer);
        }
        packer.flush();
    }

    private void send(ExtensionDatabase.Key key, ExtensionDatabase database, long nowNanos, long interval, Packer packer) {
        forget(key);
        ExtensionRecord held = database.current(key);
        if (held == null) {
            return;
        }
        long ageNanos = Math.max(0, nowNanos - database.originatedAtNanos(key));
        ExtensionRecord copy = held.withAgeMillis((int) Math.min(Integer.MAX_VALUE, (ageNanos + 999_999) / 1_000_000));
        int s = packer.add(copy);
        unacked.put(key, new Unacked(copy.sequence(), nowNanos + interval, s));
        inFlightBytes += s;
    }

    /** Records into update packets of at most the body size. */
    private final class Packer {
        private final RouterOutput out;
        private final int maxBodyBytes;
        private final List<ExtensionRecord> batch = new ArrayList<>();
        private int size = ExtensionCodec.UPDATE_HEADER_BYTES;

        Packer(RouterOutput out, int maxBodyBytes) {
            this.out = out;
            this.maxBodyBytes = maxBodyBytes;
        }

        /** Adds {@code r}; returns its encoded size. */
        int add(ExtensionRecord r) {
            int s = ExtensionCodec.encodedSize(r);
            if (size + s > maxBodyBytes) {
                flush();
            }
            batch.add(r);
            size += s;
            return s;
        }

        void flush() {
            if (!batch.isEmpty()) {
                out.sendExtensionUpdate(id, new ExtensionUpdate(batch));
                batch.clear();
                size = ExtensionCodec.UPDATE_HEADER_BYTES;
            }
        }
    }
}
