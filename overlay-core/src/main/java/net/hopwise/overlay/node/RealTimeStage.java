package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.collection.LongObjectHashMap;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.realtime.RealTimeCodec;
import net.hopwise.overlay.realtime.RealTimeConfig;
import net.hopwise.overlay.realtime.RealTimeFlowMonitor;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.realtime.RealTimeLinkReceiver;
import net.hopwise.overlay.realtime.RealTimeLinkSender;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The real-time layer of a node: a real-time channel per link (made on first use), which numbers
 * each packet for the link, keeps it for a retransmission while it can still arrive in time and asks
 * for what it misses; and the flows arriving at local ports, with their statistics and duplicate
 * suppression. Packets are forwarded at once, out of order, and never wait. A resent packet is
 * flagged, and the flag becomes a mark later hops keep, so that its destination can tell which
 * packets recovery saved (RealTimeCodec has the flags).
 *
 * <p>Sans-IO like the rest of the node: it sends, forwards and delivers through the {@link NodeContext}
 * of its node, on the node's thread and clock.
 *
 * <p>Just over 400 lines: a packet's way through the node (sent, received on a link, forwarded or
 * delivered to a flow) reads in one place, and the link channels and the flow table are each already
 * classes of their own ({@code RealTimeChannel}, {@code RealTimeFlowMonitor}).
 */
final class RealTimeStage implements Stage {
    static final String NAME = "real-time";

    private static final int METRIC_COUNT = RoutingMetric.values().length;

    private final NodeContext node;
    private final RealTimeConfig config;
    private final ByteBufAllocator allocator;
    private final NodeCounters counters;
    private final LongObjectHashMap<RealTimeChannel> realTimeChannels = new LongObjectHashMap<>();
    /** A copy of the channels for readers on other threads (meters), replaced on every change. */
    private volatile java.util.Map<Long, RealTimeChannel> realTimeChannelView = java.util.Map.of();
    /** In order of last arrival (access order), so the flow silent longest is the eldest. */
    private final java.util.LinkedHashMap<RealTimeFlowKey, RealTimeFlowMonitor> realTimeFlows =
            new java.util.LinkedHashMap<>(16, 0.75f, true);
    private final RealTimeCounters realTimeCounters = new RealTimeCounters();
    private final long[] nackScratch = new long[RealTimeCodec.MAX_NACK_SEQUENCES];
    /** The modules' packet types on the real-time channels. */
    final ModuleRealTime modules;

    RealTimeStage(NodeContext node, RealTimeConfig config, ByteBufAllocator allocator, NodeCounters counters) {
        this.node = node;
        this.config = config;
        this.allocator = allocator;
        this.counters = counters;
        this.modules = new ModuleRealTime(node, this, allocator, counters);
    }

    /**
     * Sends one real-time packet: never fragmented, stamped with the send time, routed hop by hop over
     * real-time channels that each recover their own losses while the packet can still be useful.
     *
     * <p>The caller keeps ownership of {@code payload}; its readable bytes are copied.
     *
     * @param flowSequence the flow's end-to-end sequence number (32 bits travel), from which the
     *     destination counts loss
     * @throws IllegalArgumentException when the payload exceeds {@link RealTimeCodec#MAX_PAYLOAD} or a
     *     port is out of range
     */
    SendResult sendRealTime(int sourcePort, NodeId destination, int destinationPort, long flowSequence,
            ByteBuf payload, RoutingMetric metric, long nowNanos) {
        node.advance(nowNanos);
        int length = payload.readableBytes();
        if (length > node.maxBody() - RealTimeCodec.HEADER_LENGTH) {
            throw new IllegalArgumentException("real-time packet of " + length + " bytes exceeds "
                    + (node.maxBody() - RealTimeCodec.HEADER_LENGTH));
        }
        if (destinationPort < 1 || destinationPort > 65535 || sourcePort < 0 || sourcePort > 65535) {
            throw new IllegalArgumentException("ports must be 1-65535");
        }
        if (destination.equals(node.id())) {
            realTimeCounters.add(RealTimeCounters.SENT);
            deliverRealTime(node.selfId(), sourcePort, destinationPort, flowSequence, node.now(), payload, false);
            return SendResult.ACCEPTED;
        }
        Neighbour via = node.firstHop(destination, metric);
        if (via == null) {
            return SendResult.NO_ROUTE;
        }
        if (!via.writable()) {
            return SendResult.BACK_PRESSURED;
        }
        ByteBuf packet = allocator.ioBuffer(WireHeader.LENGTH + RealTimeCodec.HEADER_LENGTH + length);
        WireHeader.write(packet, PacketType.REALTIME_DATA, 0, node.selfId(), via.id().value(), via.takeLinkSequence());
        RealTimeCodec.writeData(packet, node.selfId(), destination.value(), sourcePort, destinationPort, node.config().hopLimit(),
                metric.ordinal(), flowSequence, node.now());
        packet.writeBytes(payload, payload.readerIndex(), length);
        WireHeader.finish(packet, 0);
        realTimeCounters.add(RealTimeCounters.SENT);
        transmitRealTime(via, packet);
        return SendResult.ACCEPTED;
    }

    /** What the real-time flows arriving at a local port look like node.now(). */
    List<RealTimeFlowStatistics> realTimeFlows(int port) {
        return realTimeFlowsWhere(port);
    }

    /**
     * What the real-time flows arriving at every local port look like node.now(), by port: for admin views,
     * which do not know which ports the applications opened.
     */
    List<RealTimeFlowStatistics> realTimeFlows() {
        return realTimeFlowsWhere(-1);
    }

    List<RealTimeFlowStatistics> realTimeFlowsWhere(int port) {
        List<RealTimeFlowStatistics> list = new ArrayList<>();
        for (java.util.Map.Entry<RealTimeFlowKey, RealTimeFlowMonitor> e : realTimeFlows.entrySet()) {
            RealTimeFlowKey k = e.getKey();
            if (port < 0 || k.port() == port) {
                list.add(e.getValue().snapshot(node.nameOf(k.origin()), k.sourcePort(), k.port()));
            }
        }
        list.sort(java.util.Comparator.comparingInt(RealTimeFlowStatistics::port)
                .thenComparing(RealTimeFlowStatistics::sourceName)
                .thenComparingInt(RealTimeFlowStatistics::sourcePort));
        return list;
    }

    /**
     * The real-time channel to a neighbour, or null before its first real-time packet; safe from any
     * thread.
     */
    RealTimeChannel realTimeChannel(NodeId neighbour) {
        return realTimeChannelView.get(neighbour.value());
    }

    void publishRealTimeChannels() {
        java.util.Map<Long, RealTimeChannel> view = new java.util.HashMap<>();
        for (io.netty.util.collection.LongObjectMap.PrimitiveEntry<RealTimeChannel> e : realTimeChannels.entries()) {
            view.put(e.key(), e.value());
        }
        realTimeChannelView = java.util.Map.copyOf(view);
    }

    RealTimeCounters realTimeCounters() {
        return realTimeCounters;
    }

    RealTimeChannel realTimeChannelOf(Neighbour n) {
        RealTimeChannel channel = realTimeChannels.get(n.id().value());
        if (channel == null) {
            RealTimeLinkSender<ByteBuf> sender = new RealTimeLinkSender<>(config, new RealTimeLinkSender.Output<>() {
                @Override
                public void retransmit(long seq, ByteBuf stored) {
                    retransmitRealTime(n, stored, 0);
                }

                @Override
                public void retransmit(long seq, ByteBuf stored, long heldNanos) {
                    retransmitRealTime(n, stored, heldNanos);
                }

                @Override
                public void evicted(ByteBuf stored) {
                    stored.release();
                }
            });
            RealTimeLinkReceiver receiver = new RealTimeLinkReceiver(config, (sequences, count) -> {
                if (node.isCurrent(n)) {
                    node.sendControl(n, PacketType.REALTIME_NACK, out -> RealTimeCodec.writeNack(out, sequences, count));
                }
            });
            channel = new RealTimeChannel(sender, receiver);
            realTimeChannels.put(n.id().value(), channel);
            publishRealTimeChannels();
        }
        return channel;
    }

    /** Numbers a real-time datagram for the link, keeps it in the link's history and sends it. */
    void transmitRealTime(Neighbour via, ByteBuf datagram) {
        RealTimeLinkSender<ByteBuf> sender = realTimeChannelOf(via).sender;
        RealTimeCodec.setLinkSequence(WireHeader.body(datagram), sender.nextSequence());
        // The history gets its own view of the same bytes; the socket releases the other.
        sender.sent(datagram.retainedDuplicate(), node.now());
        node.transmit(via, datagram);
    }

    void retransmitRealTime(Neighbour via, ByteBuf stored, long heldNanos) {
        if (!node.isCurrent(via)) {
            return;
        }
        // A copy, so re-stamping never touches bytes the socket may still be sending.
        ByteBuf copy = allocator.ioBuffer(stored.readableBytes());
        copy.writeBytes(stored, stored.readerIndex(), stored.readableBytes());
        WireHeader.restamp(copy, node.selfId(), via.id().value(), via.takeLinkSequence());
        if (WireHeader.typeCode(copy) == PacketType.REALTIME_DATA.code()) {
            WireHeader.setFlags(copy, WireHeader.flags(copy) | RealTimeCodec.FLAG_RETRANSMITTED);
        } else {
            ModuleRealTime.age(WireHeader.body(copy), heldNanos);
        }
        node.transmit(via, copy);
    }

    void onRealTimeData(Neighbour from, ByteBuf datagram, ByteBuf body) {
        int flags = WireHeader.flags(datagram);
        if (!RealTimeCodec.isWellFormed(body, METRIC_COUNT) || !RealTimeCodec.areFlagsKnown(flags)) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        from.monitor.onPacketReceived(WireHeader.linkSequence(datagram), node.now());
        if (!realTimeChannelOf(from).receiver.onPacket(RealTimeCodec.linkSequence(body))) {
            counters.drop(DropReason.DUPLICATE);
            return;
        }
        // The origin's send time, read onto this node's clock hop by hop, so that the destination's
        // delays and lateness hold across machines whose clocks are unrelated.
        long offset = from.clockOffsetNanos();
        if (offset != 0) {
            RealTimeCodec.setSendTime(body, RealTimeCodec.sendTime(body) - offset);
        }
        long destination = RealTimeCodec.destination(body);
        if (destination == node.selfId()) {
            deliverRealTime(RealTimeCodec.origin(body), RealTimeCodec.sourcePort(body),
                    RealTimeCodec.destinationPort(body), RealTimeCodec.flowSequence(body),
                    RealTimeCodec.sendTime(body), RealTimeCodec.payload(body), RealTimeCodec.isRecovered(flags));
            return;
        }
        int hops = RealTimeCodec.hopLimit(body);
        Neighbour via = node.forwardingHop(destination, hops, RealTimeCodec.metric(body));
        if (via == null) {
            return;
        }
        RealTimeCodec.setHopLimit(body, hops - 1);
        WireHeader.setFlags(datagram, RealTimeCodec.forwardedFlags(flags));
        WireHeader.restamp(datagram, node.selfId(), via.id().value(), via.takeLinkSequence());
        counters.add(NodeCounters.PACKETS_FORWARDED, 1);
        realTimeCounters.add(RealTimeCounters.FORWARDED);
        // A right-sized copy: the link history keeps it for up to the deadline, and a received datagram
        // may be a slice of a larger batch buffer that must not stay pinned that long.
        ByteBuf copy = allocator.ioBuffer(datagram.readableBytes());
        copy.writeBytes(datagram, datagram.readerIndex(), datagram.readableBytes());
        transmitRealTime(via, copy);
    }

    void onRealTimeNack(Neighbour from, ByteBuf datagram, ByteBuf body) {
        int count = RealTimeCodec.readNack(body, nackScratch);
        if (count < 0) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        from.monitor.onPacketReceived(WireHeader.linkSequence(datagram), node.now());
        realTimeChannelOf(from).sender.onNack(nackScratch, count, node.now());
    }

    void deliverRealTime(long origin, int sourcePort, int port, long flowSequence, long sendTime,
            ByteBuf payload, boolean recovered) {
        if (!node.isPortOpen(port)) {
            counters.drop(DropReason.PORT_CLOSED);
            return;
        }
        RealTimeFlowMonitor flow = realTimeFlow(new RealTimeFlowKey(origin, sourcePort, port));
        if (flow == null) {
            counters.drop(DropReason.FLOW_LIMIT);
            return;
        }
        boolean late = node.now() - sendTime > config.lateDeadline().toNanos();
        if (!flow.onPacket(flowSequence, sendTime, node.now(), late, recovered)) {
            counters.drop(DropReason.DUPLICATE);
            return;
        }
        realTimeCounters.add(RealTimeCounters.DELIVERED);
        if (late) {
            realTimeCounters.add(RealTimeCounters.LATE);
        }
        if (recovered) {
            realTimeCounters.add(RealTimeCounters.RECOVERED);
        }
        node.deliver(origin, sourcePort, port, payload, flowSequence & 0xFFFF_FFFFL, sendTime, recovered);
    }

    /**
     * The monitor of a flow; a new one only while there is room, or when the flow silent longest has
     * been silent for the idle timeout and gives up its slot. Null when neither: packets for made-up
     * flows must not grow the node without bound.
     */
    RealTimeFlowMonitor realTimeFlow(RealTimeFlowKey key) {
        RealTimeFlowMonitor flow = realTimeFlows.get(key);
        if (flow != null) {
            return flow;
        }
        if (realTimeFlows.size() >= config.maxFlows()) {
            java.util.Iterator<java.util.Map.Entry<RealTimeFlowKey, RealTimeFlowMonitor>> eldest =
                    realTimeFlows.entrySet().iterator();
            if (node.now() - eldest.next().getValue().lastArrivalNanos() < config.flowIdleTimeout().toNanos()) {
                return null;
            }
            eldest.remove();
        }
        flow = new RealTimeFlowMonitor(config);
        realTimeFlows.put(key, flow);
        return flow;
    }

    @Override
    public boolean takes(int type) {
        return type == PacketType.REALTIME_DATA.code() || type == PacketType.REALTIME_NACK.code()
                || modules.takes(type);
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        int type = frame.type();
        if (type == PacketType.REALTIME_DATA.code()) {
            onRealTimeData((Neighbour) frame.link(), frame.datagram(), frame.body());
        } else if (type == PacketType.REALTIME_NACK.code()) {
            onRealTimeNack((Neighbour) frame.link(), frame.datagram(), frame.body());
        } else if (modules.takes(type)) {
            modules.onData((Neighbour) frame.link(), type, frame.body());
        } else {
            next.accept(frame);
        }
    }

    @Override
    public long nextDeadlineNanos() {
        return realTimeNextDeadlineNanos();
    }

    @Override
    public void onTimer(long nowNanos) {
        onRealTimeTimer();
    }

    @Override
    public void close() {
        closeRealTime();
    }

    void onRealTimeTimer() {
        if (realTimeChannels.isEmpty()) {
            return; // asked after every input: a node without real-time traffic pays nothing
        }
        for (RealTimeChannel c : realTimeChannels.values()) {
            if (c.sender.nextDeadlineNanos() <= node.now()) {
                c.sender.onTimer(node.now());
            }
        }
    }

    long realTimeNextDeadlineNanos() {
        long next = Long.MAX_VALUE;
        if (realTimeChannels.isEmpty()) {
            return next;
        }
        for (RealTimeChannel c : realTimeChannels.values()) {
            next = Math.min(next, c.sender.nextDeadlineNanos());
        }
        return next;
    }

    /** A link that comes up may lead to a restarted neighbour whose numbering started over. */
    void resetRealTimeReceiver(Neighbour n) {
        RealTimeChannel c = realTimeChannels.get(n.id().value());
        if (c != null) {
            c.receiver.reset();
        }
    }

    void closeRealTimeChannel(Neighbour n) {
        RealTimeChannel c = realTimeChannels.remove(n.id().value());
        if (c != null) {
            c.close();
            publishRealTimeChannels();
        }
    }

    void forgetRealTimeFlows(int port) {
        realTimeFlows.keySet().removeIf(k -> k.port() == port);
    }

    void closeRealTime() {
        for (RealTimeChannel c : realTimeChannels.values()) {
            c.close();
        }
        realTimeChannels.clear();
        publishRealTimeChannels();
    }

    record RealTimeFlowKey(long origin, int sourcePort, int port) {
        /**
         * Mixed: the record's own hash is {@code 31 * sourcePort + port} plus the origin's, and a relay
         * allocates both ports in steps together, so a thousand flows from one origin hashed 32 or 64
         * apart into a few buckets, turned into trees (about 1% of a VoIP relay's loop at 1000 calls).
         */
        @Override
        public int hashCode() {
            long h = (origin ^ (((long) sourcePort << 32) | (port & 0xFFFFFFFFL))) * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32));
        }
    }
}
