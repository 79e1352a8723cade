package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DataHeader;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * Best-effort data: a datagram passing through is checked at fixed offsets, re-stamped in place for
 * the next link and handed on with one more reference (only the destination looks at the payload);
 * one for this node goes up to delivery. Sending builds the datagrams of a message, fragmented when
 * it exceeds one.
 */
final class ForwardingStage implements Stage {
    static final String NAME = "forwarding";
    private static final int METRIC_COUNT = RoutingMetric.values().length;

    /** Bytes in front of the payload of a single-datagram message: the wire and data headers. */
    static final int PREPARED_HEADROOM = WireHeader.LENGTH + DataHeader.LENGTH;

    private final NodeContext node;
    private final NodeConfig config;
    private final NodeCounters counters;
    private int nextMessageId;
    /** Payload of one fragment: what a datagram of this node holds behind the wire and data headers. */
    private final int fragmentPayload;

    ForwardingStage(NodeContext node) {
        this.node = node;
        this.fragmentPayload = node.maxDatagram() - PREPARED_HEADROOM;
        this.config = node.config();
        this.counters = node.counters();
    }

    int fragmentPayload() {
        return fragmentPayload;
    }

    @Override
    public boolean takes(int type) {
        return type == PacketType.DATA.code();
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        if (frame.type() != PacketType.DATA.code()) {
            next.accept(frame);
            return;
        }
        ByteBuf datagram = frame.datagram();
        ByteBuf body = frame.body();
        if (!DataHeader.isWellFormed(body, METRIC_COUNT)) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        Neighbour from = (Neighbour) frame.link();
        from.monitor.onPacketReceived(frame.linkSequence(), frame.nowNanos());
        long destination = DataHeader.destination(body);
        if (destination == node.selfId()) {
            next.accept(frame);
            return;
        }
        int hops = DataHeader.hopLimit(body);
        Neighbour via = node.forwardingHop(destination, hops, DataHeader.metric(body));
        if (via == null) {
            return;
        }
        DataHeader.setHopLimit(body, hops - 1);
        WireHeader.restamp(datagram, node.selfId(), via.id().value(), via.takeLinkSequence());
        counters.add(NodeCounters.PACKETS_FORWARDED, 1);
        node.transmit(via, datagram.retainedDuplicate());
    }

    /**
     * Sends a message best-effort, fragmenting it when it exceeds one datagram; the caller keeps
     * ownership of {@code payload}.
     */
    SendResult send(int sourcePort, NodeId destination, int destinationPort, ByteBuf payload, RoutingMetric metric) {
        int length = payload.readableBytes();
        if (length > config.maxMessageBytes()) {
            throw new IllegalArgumentException("message of " + length + " bytes exceeds maxMessageBytes "
                    + config.maxMessageBytes());
        }
        if (destinationPort < 1 || destinationPort > 65535 || sourcePort < 0 || sourcePort > 65535) {
            throw new IllegalArgumentException("ports must be 1-65535");
        }
        long selfId = node.selfId();
        if (destination.value() == selfId) {
            counters.add(NodeCounters.MESSAGES_SENT, 1);
            node.deliver(selfId, sourcePort, destinationPort, payload, DeliveryStage.NOT_REAL_TIME,
                    DeliveryStage.NOT_REAL_TIME, false);
            return SendResult.ACCEPTED;
        }
        Neighbour via = node.firstHop(destination, metric);
        if (via == null) {
            return SendResult.NO_ROUTE;
        }
        if (!via.writable()) {
            return SendResult.BACK_PRESSURED;
        }
        int fragments = Math.max(1, (length + fragmentPayload - 1) / fragmentPayload);
        int messageId = nextMessageId++;
        int offset = payload.readerIndex();
        for (int i = 0; i < fragments; i++) {
            int chunk = Math.min(fragmentPayload, length - i * fragmentPayload);
            // Room behind the datagram for what the datagram stages add, so it is sealed in place.
            ByteBuf packet = node.allocator().ioBuffer(PREPARED_HEADROOM + chunk + node.datagramOverhead());
            WireHeader.write(packet, PacketType.DATA, 0, selfId, via.id().value(), via.takeLinkSequence());
            DataHeader.write(packet, selfId, destination.value(), sourcePort, destinationPort, config.hopLimit(),
                    metric.ordinal(), i, fragments, messageId);
            packet.writeBytes(payload, offset + i * fragmentPayload, chunk);
            WireHeader.finish(packet, 0);
            node.transmit(via, packet);
        }
        counters.add(NodeCounters.MESSAGES_SENT, 1);
        return SendResult.ACCEPTED;
    }

    /**
     * Sends a single-datagram message whose payload the caller already wrote behind
     * {@link #PREPARED_HEADROOM} free bytes: the headers are filled in place and the very buffer is
     * transmitted. Takes ownership of {@code packet} whatever the result.
     */
    SendResult sendPrepared(int sourcePort, NodeId destination, int destinationPort, ByteBuf packet,
            RoutingMetric metric) {
        int payloadLength = packet.readableBytes() - PREPARED_HEADROOM;
        if (payloadLength < 0 || payloadLength > fragmentPayload || packet.readerIndex() != 0) {
            packet.release();
            throw new IllegalArgumentException("a prepared packet holds " + PREPARED_HEADROOM
                    + " bytes of headroom and at most " + fragmentPayload + " bytes of payload");
        }
        long selfId = node.selfId();
        if (destination.value() == selfId) {
            try {
                counters.add(NodeCounters.MESSAGES_SENT, 1);
                node.deliver(selfId, sourcePort, destinationPort, packet.slice(PREPARED_HEADROOM, payloadLength),
                        DeliveryStage.NOT_REAL_TIME, DeliveryStage.NOT_REAL_TIME, false);
            } finally {
                packet.release();
            }
            return SendResult.ACCEPTED;
        }
        Neighbour via = node.firstHop(destination, metric);
        if (via == null) {
            packet.release();
            return SendResult.NO_ROUTE;
        }
        int end = packet.writerIndex();
        packet.writerIndex(0);
        WireHeader.write(packet, PacketType.DATA, 0, selfId, via.id().value(), via.takeLinkSequence());
        DataHeader.write(packet, selfId, destination.value(), sourcePort, destinationPort, config.hopLimit(),
                metric.ordinal(), 0, 1, nextMessageId++);
        packet.writerIndex(end);
        WireHeader.finish(packet, 0);
        counters.add(NodeCounters.MESSAGES_SENT, 1);
        node.transmit(via, packet);
        return SendResult.ACCEPTED;
    }
}
