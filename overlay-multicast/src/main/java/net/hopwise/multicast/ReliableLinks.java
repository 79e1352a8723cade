package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * The hop-by-hop half of reliable multicast on one node: a link channel of its own per neighbour
 * (packet types {@link ReliablePacket#DATA} and {@link ReliablePacket#ACK}), which resends what the
 * link loses, and the receiving ends of the neighbours' channels. A channel whose link goes, or that
 * gives a packet up, is dropped with what it held: that is repaired end to end. Only on the node's thread.
 */
final class ReliableLinks {
    private final ModuleContext context;
    private final int bufferPackets;
    private final SplittableRandom random;
    private final DropCounter malformed;
    private final DropCounter bufferFull;
    private final DropCounter linkGone;
    private final ChannelReceivers receivers;
    private final Map<NodeId, LinkChannel> channels = new HashMap<>();
    /**
     * Channels that queued packets not pumped yet. Sending each packet on every child's link in turn
     * interleaved the destinations, so that no two datagrams in a row went to one address; pumped at
     * the end of a batch, a channel's packets leave back to back and the node sends them as one run
     * (UDP GSO), which its neighbour reads as one (GRO).
     */
    private final java.util.Set<LinkChannel> pending = new java.util.LinkedHashSet<>();
    /** Per neighbour: when a packet for it was last refused, skipped (its link down) or lost with its channel. */
    private final Map<NodeId, Long> lossNanos = new HashMap<>();

    ReliableLinks(ModuleContext context, int bufferPackets, SplittableRandom random, DropCounter malformed) {
        this.context = context;
        this.bufferPackets = bufferPackets;
        this.random = random;
        this.malformed = malformed;
        this.bufferFull = context.dropReason("multicast_reliable_buffer_full");
        this.linkGone = context.dropReason("multicast_reliable_link_gone");
        this.receivers = new ChannelReceivers(context, malformed, ReliablePacket.HEADER, ReliablePacket.ACK,
                context.dropReason("multicast_reliable_duplicate"), context.dropReason("multicast_reliable_window"));
    }

    /** The packet a channel datagram carries (a view without a reference of its own) when it is new, else null. */
    ByteBuf accept(LinkView from, ByteBuf channelBody) {
        return receivers.accept(from, channelBody);
    }

    /** Sends a packet on each link's channel; takes {@code packet}. */
    void send(List<LinkView> links, ByteBuf packet) {
        send(links, packet, context.nowNanos());
    }

    /** Sends a packet on each link's channel, as offered at {@code nowNanos}; takes {@code packet}. */
    void send(List<LinkView> links, ByteBuf packet, long nowNanos) {
        try {
            for (LinkView link : links) {
                LinkChannel c = channel(link.id(), nowNanos);
                if (!c.queue(packet.retainedDuplicate(), nowNanos)) {
                    bufferFull.increment();
                    lossNanos.put(link.id(), nowNanos);
                } else {
                    pending.add(c);
                }
            }
        } finally {
            packet.release();
        }
    }

    /**
     * Whether a packet offered to this neighbour's channel at {@code offeredNanos} is still on its way:
     * nothing for the neighbour was refused or lost since, and the channel still holds what was offered
     * then. A request for such a packet needs no repair: the channel delivers it, or fails and is made
     * anew, after which the request is answered.
     */
    boolean carrying(NodeId neighbour, long offeredNanos) {
        LinkChannel c = channels.get(neighbour);
        return c != null && c.heldSinceNanos() <= offeredNanos
                && lossNanos.getOrDefault(neighbour, Long.MIN_VALUE) < offeredNanos;
    }

    /** Packets this node's reliable multicast channel to {@code neighbour} holds unsent. */
    int queued(NodeId neighbour) {
        LinkChannel c = channels.get(neighbour);
        return c == null ? 0 : c.buffered();
    }

    private LinkChannel channel(NodeId neighbour, long nowNanos) {
        LinkChannel c = channels.get(neighbour);
        if (c == null) {
            c = LinkChannel.lossDrivenWithQueueTarget(random.nextInt(), bufferPackets, context.allocator(), body -> transmit(neighbour, body),
                    nowNanos);
            channels.put(neighbour, c);
        }
        return c;
    }

    private boolean transmit(NodeId neighbour, ByteBuf body) {
        LinkView link = context.link(neighbour);
        if (link == null) {
            body.release();
            return false;
        }
        return context.send(link, ReliablePacket.DATA, body);
    }

    /** Sends what the channels queued since the last call. */
    void pump(long nowNanos) {
        for (LinkChannel c : pending) {
            c.pump(nowNanos);
        }
        pending.clear();
    }

    /** The links to these neighbours that are up. */
    List<LinkView> links(List<NodeId> ids) {
        List<LinkView> links = new ArrayList<>(ids.size());
        for (NodeId id : ids) {
            LinkView link = context.link(id);
            if (link != null && link.status() == LinkStatus.UP) {
                links.add(link);
            } else {
                lossNanos.put(id, context.nowNanos());
            }
        }
        return links;
    }

    void onAck(LinkView from, ByteBuf body, long nowNanos) {
        ChannelAck ack = ChannelAck.decode(body);
        if (ack == null) {
            malformed.increment();
            return;
        }
        LinkChannel c = channels.get(from.id());
        if (c != null) {
            c.onAck(ack, nowNanos);
        }
    }

    long nextDeadlineNanos() {
        if (!pending.isEmpty()) {
            return context.nowNanos(); // a batch that ended without a flush: pumped by the timer
        }
        // An acknowledgement the socket refused goes again once it had time to drain.
        long next = receivers.owing() ? context.nowNanos() + LinkChannel.REFUSED_RETRY_NANOS : Long.MAX_VALUE;
        for (LinkChannel c : channels.values()) {
            next = Math.min(next, c.nextDeadlineNanos());
        }
        return next;
    }

    void onTimer(long nowNanos) {
        if (receivers.owing()) {
            receivers.flush();
        }
        pump(nowNanos);
        for (Iterator<Map.Entry<NodeId, LinkChannel>> it = channels.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<NodeId, LinkChannel> e = it.next();
            LinkView link = context.link(e.getKey());
            LinkChannel c = e.getValue();
            if (link == null || link.status() != LinkStatus.UP || c.failed()) {
                // What it held is repaired end to end, from the nearest cache that has it.
                for (int i = c.buffered() + c.inFlight(); i > 0; i--) {
                    linkGone.increment();
                }
                c.close();
                it.remove();
                lossNanos.put(e.getKey(), nowNanos);
                continue;
            }
            c.onTimer(nowNanos);
        }
    }

    /** Each channel's window, packets in flight and waiting, round trips, refusals and resends, for diagnostics. */
    String describe() {
        StringBuilder out = new StringBuilder();
        channels.forEach((id, c) -> out.append(String.format(java.util.Locale.ROOT,
                " [w %.1f f %d b %d rtt %.2f/%.2f ms refused %d resent %d]", c.window(), c.inFlight(), c.buffered(),
                c.smoothedRttNanos() / 1e6, c.baseRttNanos() == Long.MAX_VALUE ? -1 : c.baseRttNanos() / 1e6,
                c.refused(), c.resent())));
        return out.toString();
    }

    /**
     * The batch's acknowledgements first, then the data it queued: a relay's data for many children
     * can fill the node's write buffer past its high-water mark, after which an acknowledgement to
     * its parent was refused, and the parent's window waited for its retransmission timer.
     */
    void flush() {
        receivers.flush();
        pump(context.nowNanos());
    }

    void close() {
        channels.values().forEach(LinkChannel::close);
        channels.clear();
        pending.clear();
        lossNanos.clear();
    }
}
