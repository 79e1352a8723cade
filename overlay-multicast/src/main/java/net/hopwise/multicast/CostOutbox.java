package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * The cost updates a node owes each neighbour, waiting for a packet to ride on: the thesis's updates
 * were "piggy-backed with the data packets whenever possible", and a datagram of their own costs each
 * its wire header on the very links that are congested. They ride on the flow-control channel's data
 * and acknowledgements crossing the link; an update goes as a datagram of its own when nothing
 * crossed the link for {@code idleNanos} (T_update): on a link that carries traffic the next carrier
 * comes within a packet's time, and on one that carries none waiting would only delay the feedback.
 * An update that waited T_update while no carrier that crossed had room for it, even alone, goes on its
 * own then (a full data packet leaves about 132 bytes, an update of more than 9 links is larger): else a
 * busy link would hold it, and every later update of its origin merged into it, for good. One that
 * would have fitted but found the room taken by older updates keeps waiting: those ahead of it ride
 * first, so it rides within the packets they take, as the thesis's piggy-backing has it.
 *
 * <p>An origin's updates are soft state merged in order (a fast update lists only its links with a
 * queue), so a newer update of an origin still waiting is merged into the older one: what the
 * neighbour receives is what it would have after both. Sans-IO: time is handed in and standalone
 * updates leave through the {@link Sink}. Only on the node's thread.
 */
final class CostOutbox {
    /** Where an update goes as a datagram of its own. */
    interface Sink {
        void send(NodeId neighbour, CostUpdate update);
    }

    private static final class Waiting {
        final Map<NodeId, CostUpdate> byOrigin = new LinkedHashMap<>();
        /**
         * How long each origin's update has waited (a merge keeps the first instant, so the wait stays
         * bounded) and for what room. Insertion order is that of time, so the first entry is the oldest.
         */
        final Map<NodeId, Age> ages = new LinkedHashMap<>();
        long lastCarrierNanos;
        long carriedBytes;
        long standalone;

        Waiting(long lastCarrierNanos) {
            this.lastCarrierNanos = lastCarrierNanos;
        }
    }

    private static final class Age {
        final long sinceNanos;
        /** The most room a carrier offered while the update waited, before other updates took any of it. */
        int room;

        Age(long sinceNanos) {
            this.sinceNanos = sinceNanos;
        }
    }

    private final long idleNanos;
    private final ByteBufAllocator allocator;
    private final Sink sink;
    private final Map<NodeId, Waiting> waiting = new HashMap<>();

    CostOutbox(long idleNanos, ByteBufAllocator allocator, Sink sink) {
        this.idleNanos = idleNanos;
        this.allocator = allocator;
        this.sink = sink;
    }

    /** An update owed to a neighbour: it goes at once when the link has been idle for T_update, else it waits. */
    void queue(NodeId neighbour, CostUpdate update, long nowNanos) {
        Waiting w = waiting.computeIfAbsent(neighbour, n -> new Waiting(nowNanos - idleNanos));
        CostUpdate before = w.byOrigin.get(update.origin());
        w.byOrigin.put(update.origin(), before == null ? update : merge(before, update));
        w.ages.computeIfAbsent(update.origin(), o -> new Age(nowNanos));
        if (nowNanos - w.lastCarrierNanos >= idleNanos) {
            flush(neighbour, w);
        }
    }

    /** {@code later} applied after {@code earlier}, as one update with the later sequence. */
    static CostUpdate merge(CostUpdate earlier, CostUpdate later) {
        Map<NodeId, CostUpdate.Link> links = new LinkedHashMap<>();
        for (CostUpdate.Link l : earlier.links()) {
            links.put(l.neighbour(), l);
        }
        for (CostUpdate.Link l : later.links()) {
            links.put(l.neighbour(), l);
        }
        return new CostUpdate(later.origin(), later.sequence(), List.copyOf(links.values()));
    }

    /**
     * A packet is about to cross the link to {@code neighbour} with {@code room} bytes to spare: the
     * updates that fit, behind their u16 length, or null when none wait or none fit.
     */
    ByteBuf take(NodeId neighbour, int room, long nowNanos) {
        Waiting w = waiting.get(neighbour);
        if (w == null) {
            if (room >= ChannelAck.CARRIED_HEADER + CostUpdate.HEADER) {
                waiting.put(neighbour, new Waiting(nowNanos));
            }
            return null;
        }
        if (room < ChannelAck.CARRIED_HEADER + CostUpdate.HEADER) {
            // A full packet carries nothing: it does not make the link one that updates can wait on.
            return null;
        }
        w.lastCarrierNanos = nowNanos;
        if (w.byOrigin.isEmpty()) {
            return null;
        }
        ByteBuf out = null;
        int offered = Math.min(0xFFFF, room - ChannelAck.CARRIED_HEADER);
        int left = offered;
        for (Iterator<CostUpdate> it = w.byOrigin.values().iterator(); it.hasNext(); ) {
            CostUpdate u = it.next();
            if (u.size() > left) {
                Age age = w.ages.get(u.origin());
                age.room = Math.max(age.room, offered);
                continue;
            }
            if (out == null) {
                out = allocator.buffer(ChannelAck.CARRIED_HEADER + u.size());
                out.writeShort(0);
            }
            u.encode(out);
            left -= u.size();
            it.remove();
            w.ages.remove(u.origin());
        }
        if (out != null) {
            out.setShort(0, out.readableBytes() - ChannelAck.CARRIED_HEADER);
            w.carriedBytes += out.readableBytes();
        }
        return out;
    }

    /** The earliest instant an update still waiting must go on its own. */
    long nextDeadlineNanos() {
        long next = Long.MAX_VALUE;
        for (Waiting w : waiting.values()) {
            if (!w.byOrigin.isEmpty()) {
                next = Math.min(next, w.lastCarrierNanos + idleNanos);
                // The oldest that no carrier had room for; room offered only grows, so the rest ride.
                for (Map.Entry<NodeId, Age> a : w.ages.entrySet()) {
                    if (w.byOrigin.get(a.getKey()).size() > a.getValue().room) {
                        next = Math.min(next, a.getValue().sinceNanos + idleNanos);
                        break;
                    }
                }
            }
        }
        return next;
    }

    /**
     * Sends on their own the updates of links that carried nothing for T_update, and those that
     * waited T_update without a carrier with room for them.
     */
    void onTimer(long nowNanos) {
        for (Map.Entry<NodeId, Waiting> e : new ArrayList<>(waiting.entrySet())) {
            Waiting w = e.getValue();
            if (w.byOrigin.isEmpty()) {
                continue;
            }
            if (nowNanos - w.lastCarrierNanos >= idleNanos) {
                flush(e.getKey(), w);
                continue;
            }
            List<CostUpdate> unfitted = new ArrayList<>();
            for (Iterator<Map.Entry<NodeId, Age>> it = w.ages.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<NodeId, Age> a = it.next();
                if (nowNanos - a.getValue().sinceNanos < idleNanos) {
                    break;
                }
                if (w.byOrigin.get(a.getKey()).size() > a.getValue().room) {
                    it.remove();
                    unfitted.add(w.byOrigin.remove(a.getKey()));
                }
            }
            for (CostUpdate u : unfitted) {
                w.standalone++;
                sink.send(e.getKey(), u);
            }
        }
    }

    private void flush(NodeId neighbour, Waiting w) {
        List<CostUpdate> all = new ArrayList<>(w.byOrigin.values());
        w.byOrigin.clear();
        w.ages.clear();
        for (CostUpdate u : all) {
            w.standalone++;
            sink.send(neighbour, u);
        }
    }

    /** The link is gone: what waited for it is dropped (the next updates repair it). */
    void forget(NodeId neighbour) {
        waiting.remove(neighbour);
    }

    /** Bytes the updates that rode on packets to {@code neighbour} took, their lengths included, since start. */
    long carriedBytes(NodeId neighbour) {
        Waiting w = waiting.get(neighbour);
        return w == null ? 0 : w.carriedBytes;
    }

    /** Updates sent to {@code neighbour} as datagrams of their own, since start. */
    long standalone(NodeId neighbour) {
        Waiting w = waiting.get(neighbour);
        return w == null ? 0 : w.standalone;
    }
}
