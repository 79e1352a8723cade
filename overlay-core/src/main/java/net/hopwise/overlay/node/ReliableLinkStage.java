package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.reliable.ReliableLinkCodec;
import net.hopwise.overlay.reliable.ReliableLinkOutput;
import net.hopwise.overlay.reliable.ReliableLinkReceiver;
import net.hopwise.overlay.reliable.ReliableLinkSender;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionHeader;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DataHeader;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.HeaderBytes;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The reliable channel of every link, both directions: packets of sessions leave by it and packets
 * passing through are forwarded on it at once, whatever their order; each is resent on the link where
 * it was lost, and acknowledgements ride on data going the other way or leave at the end of a read.
 * A packet whose next link's queue is full is refused (left unacknowledged) so the previous hop keeps
 * it: memory stays bounded and nothing is lost inside the overlay.
 *
 * <p>Sans-IO like the rest of the node: it reaches neighbours, routes, the session layer and the
 * clock through the {@link NodeContext} of its node, on the node's thread.
 */
final class ReliableLinkStage implements Stage {
    static final String NAME = "reliable-link";

    private static final int METRIC_COUNT = RoutingMetric.values().length;

    private final NodeContext node;
    private final NodeConfig config;
    private final ByteBufAllocator allocator;
    private final NodeCounters counters;
    /** Where the headers of each reliable packet are assembled before one copy into its buffer. */
    private final HeaderBytes headers = new HeaderBytes(256);
    /**
     * The data and session headers of each reliable packet received, copied out of the datagram once:
     * reading them from a plain array costs far less than a dozen reads through the datagram's views.
     */
    private final ByteBuf inboundHead = Unpooled.buffer(SessionHeader.PAYLOAD_OFFSET, SessionHeader.PAYLOAD_OFFSET);
    /** Reads each inbound header in place: the stage decodes no object per packet. */
    private final ReliableLinkCodec.Reader reader = new ReliableLinkCodec.Reader();
    /** {@link net.hopwise.overlay.reliable.ReliableLinkConfig#ackDelay()} in nanoseconds. */
    private final long linkAckDelay;

    ReliableLinkStage(NodeContext node, NodeConfig config, ByteBufAllocator allocator, NodeCounters counters) {
        this.node = node;
        this.config = config;
        this.allocator = allocator;
        this.counters = counters;
        this.linkAckDelay = config.reliableLink().ackDelay().toNanos();
    }

    void start(Neighbour n) {
        n.reliableSender = new ReliableLinkSender(config.reliableLink(), node.nextIncarnation(), new LinkTransmitter(n));
        n.reliableReceiver = new ReliableLinkReceiver(config.reliableLink());
    }

    /** A link went down: what waits on it is lost to the overlay, and the channel starts afresh. */
    void reset(Neighbour n) {
        int dropped = n.reliableSender.reset(node.nextIncarnation());
        if (dropped > 0) {
            counters.drop(DropReason.LINK_DOWN, dropped);
        }
    }

    /**
     * Reliable data from a neighbour: take its piggybacked acknowledgement, then the packet itself.
     * A new packet is delivered or forwarded at once, whatever the order; one whose next link's queue
     * is full is refused (left unacknowledged) so the previous hop keeps it: memory stays bounded and
     * the packet is not lost.
     */
    void onReliableData(Neighbour from, ByteBuf datagram, ByteBuf body) {
        ReliableLinkCodec.Reader h = reader;
        ByteBuf packet = !h.readData(body) ? null
                : body.slice(body.readerIndex() + h.innerOffset(), body.readableBytes() - h.innerOffset());
        ByteBuf head = packet == null ? null : headOf(packet);
        if (head == null || !DataHeader.isWellFormed(head, METRIC_COUNT) || !SessionHeader.isWellFormed(head)) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        from.monitor.onPacketReceived(WireHeader.linkSequence(datagram), node.now());
        from.reliableSender.onAck(h, node.now());
        ReliableLinkReceiver rx = from.reliableReceiver;
        ReliableLinkReceiver.Arrival arrival = rx.classify(h.epoch(), h.sequence(), h.base());
        if (arrival == ReliableLinkReceiver.Arrival.NEW) {
            // A packet that carries only a session's acknowledgement is not waited on by anyone: its
            // link acknowledgement may wait a little for a data packet going back to carry it.
            long ackBy = SessionHeader.kind(head) == SessionHeader.KIND_ACK ? node.now() + linkAckDelay : Long.MIN_VALUE;
            if (DataHeader.destination(head) == node.selfId()) {
                rx.accept(ackBy);
                node.sessionStage().onSessionPacket(packet, head);
            } else {
                forwardReliable(rx, packet, ackBy);
            }
        } else {
            counters.drop(arrival == ReliableLinkReceiver.Arrival.DUPLICATE ? DropReason.DUPLICATE : DropReason.STALE);
        }
        node.sessionStage().pumpBlockedSessions();
    }

    /** The routed packet's data and session headers (as far as it has them) in {@link #inboundHead}. */
    ByteBuf headOf(ByteBuf packet) {
        ByteBuf head = inboundHead.clear();
        packet.getBytes(packet.readerIndex(), head, Math.min(packet.readableBytes(), head.capacity()));
        return head;
    }

    void forwardReliable(ReliableLinkReceiver rx, ByteBuf packet, long ackBy) {
        int hops = DataHeader.hopLimit(packet);
        Neighbour via = node.forwardingHop(DataHeader.destination(packet), hops, DataHeader.metric(packet));
        if (via == null) {
            // Lost to the overlay: the sending edge resends it end to end once its timer runs out.
            rx.accept(ackBy);
            return;
        }
        if (!via.reliableSender.hasRoom()) {
            rx.refuse();
            counters.drop(DropReason.LINK_QUEUE_FULL);
            return;
        }
        rx.accept(ackBy);
        DataHeader.setHopLimit(packet, hops - 1);
        SessionHeader.raiseMark(packet, via.reliableSender.congestionLevel());
        counters.add(NodeCounters.PACKETS_FORWARDED, 1);
        via.reliableSender.offer(packet.retainedSlice(), node.now());
    }

    void onLinkAck(Neighbour from, ByteBuf datagram, ByteBuf body) {
        if (!reader.readAck(body, 0)) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        from.monitor.onPacketReceived(WireHeader.linkSequence(datagram), node.now());
        from.reliableSender.onAck(reader, node.now());
        node.sessionStage().pumpBlockedSessions();
    }

    void sendLinkAck(Neighbour n) {
        ReliableLinkReceiver rx = n.reliableReceiver;
        ByteBuf packet = allocator.ioBuffer(WireHeader.LENGTH + rx.ackLength());
        WireHeader.write(packet, PacketType.LINK_ACK, 0, node.selfId(), n.id().value(), n.takeLinkSequence());
        rx.writeAck(packet);
        WireHeader.finish(packet, 0);
        node.transmit(n, packet);
    }

    /** Builds the datagrams of one link's reliable channel, each carrying the other direction's acknowledgement. */
    private final class LinkTransmitter implements ReliableLinkOutput {
        private final Neighbour neighbour;

        LinkTransmitter(Neighbour neighbour) {
            this.neighbour = neighbour;
        }

        @Override
        public void transmit(long epoch, int sequence, int base, ByteBuf packet, boolean retransmission) {
            if (!node.isCurrent(neighbour)) {
                return;
            }
            ReliableLinkReceiver rx = neighbour.reliableReceiver;
            int payloadBytes = packet.readableBytes();
            int room = (node.maxDatagram() - WireHeader.LENGTH - ReliableLinkCodec.DATA_FIXED - payloadBytes
                    - ReliableLinkCodec.ACK_FIXED) / ReliableLinkCodec.BLOCK_BYTES;
            HeaderBytes h = headers.clear();
            WireHeader.write(h, PacketType.RELIABLE_DATA, 0, 0, node.selfId(), neighbour.id().value(),
                    neighbour.takeLinkSequence());
            ReliableLinkCodec.writeDataPrefix(h, epoch, sequence, base);
            rx.writeAck(h, room);
            int header = h.length();
            h.setShort(WireHeader.OFFSET_BODY_LENGTH, header - WireHeader.LENGTH + payloadBytes);
            ByteBuf datagram;
            if (!retransmission && packet.readerIndex() >= header) {
                // The node built this packet with the link headroom in front and sends it for the
                // first time: the header goes there, and the datagram is the packet's own buffer.
                int start = packet.readerIndex() - header;
                h.copyTo(packet, start);
                datagram = packet.retainedDuplicate();
                datagram.readerIndex(start);
            } else {
                // A forwarded packet (a view of a received datagram) or a resend, which must not touch
                // bytes an earlier transmission may still be sending: a copy.
                datagram = allocator.ioBuffer(header + payloadBytes);
                h.appendTo(datagram);
                datagram.writeBytes(packet, packet.readerIndex(), payloadBytes);
            }
            node.transmit(neighbour, datagram);
        }
    }


    @Override
    public boolean takes(int type) {
        return type == PacketType.RELIABLE_DATA.code() || type == PacketType.LINK_ACK.code();
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        int type = frame.type();
        if (type == PacketType.RELIABLE_DATA.code()) {
            onReliableData((Neighbour) frame.link(), frame.datagram(), frame.body());
        } else if (type == PacketType.LINK_ACK.code()) {
            onLinkAck((Neighbour) frame.link(), frame.datagram(), frame.body());
        } else {
            next.accept(frame);
        }
    }

    @Override
    public void onTimer(long nowNanos) {
        onSenderTimers();
    }

    /** Acknowledgements leave last, below the sessions', so that they ride on whatever went out. */
    @Override
    public void flush(long nowNanos) {
        sendDueAcks();
    }

    /** Time passed: each link's sender resends and probes what is due. */
    void onSenderTimers() {
        long now = node.now();
        for (Neighbour n : node.neighbourArray()) {
            if (n.reliableSender.nextDeadlineNanos() <= now) {
                n.reliableSender.onTimer(now);
            }
        }
    }

    /** Sends the link acknowledgements that are due, one per link. */
    void sendDueAcks() {
        long now = node.now();
        for (Neighbour n : node.neighbourArray()) {
            if (n.reliableReceiver.ackDue(now)) {
                sendLinkAck(n);
            }
        }
    }

    @Override
    public long nextDeadlineNanos() {
        long now = node.now();
        long next = Long.MAX_VALUE;
        for (Neighbour n : node.neighbourArray()) {
            next = Math.min(next, n.reliableSender.nextDeadlineNanos());
            if (n.reliableReceiver.ackPending()) {
                next = Math.min(next, Math.max(now, n.reliableReceiver.ackDeadline()));
            }
        }
        return next;
    }

    /** Releases what every link's channel holds. */
    @Override
    public void close() {
        for (Neighbour n : node.neighbourArray()) {
            n.reliableSender.close();
        }
    }
}
