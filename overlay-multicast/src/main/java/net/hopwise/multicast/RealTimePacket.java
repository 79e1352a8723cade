package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The header of a real-time group packet (type {@link #TYPE}, carried on the links' real-time
 * channels), in network byte order, followed by the payload:
 *
 * <pre>
 *  0  u8  version: 1
 *  1  u8  metric: the {@link RoutingMetric} ordinal whose trees the stream follows
 *  2  u8  hop limit: hops the packet may still take, at least 1 on the wire
 *  3  u8  flags: bit 0 set once a link on the way resent it; the other bits 0
 *  4  i64 source
 * 12  i64 group
 * 20  u32 sequence: the source stream's number for the packet
 * 24  u16 port
 * 26  u16 0
 * 28  i64 send time, for the members' delay statistics: on the clock of the node that sent this copy
 *     (the source stamps its own; each relay reads it onto its own by the link's clock offset)
 * 36  payload
 * </pre>
 *
 * <p>The deadline is not here: the link's real-time channel carries it as time left.
 */
record RealTimePacket(RoutingMetric metric, int hopLimit, boolean recovered, NodeId source, GroupId group,
        long sequence, int port, long sendTimeNanos) {
    /** After the reliable service's 88-90. */
    static final int TYPE = 84;
    static final int VERSION = 1;
    static final int HEADER = 36;
    private static final int RECOVERED = 1;
    private static final int OFFSET_HOP_LIMIT = 2;
    private static final int OFFSET_FLAGS = 3;
    private static final int OFFSET_SEND_TIME = 28;
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    /** Writes the header to a new buffer of {@code HEADER + room} capacity. */
    ByteBuf encodeHeader(ByteBufAllocator allocator, int room) {
        ByteBuf out = allocator.buffer(HEADER + room);
        out.writeByte(VERSION);
        out.writeByte(metric.ordinal());
        out.writeByte(hopLimit);
        out.writeByte(recovered ? RECOVERED : 0);
        out.writeLong(source.value());
        out.writeLong(group.value());
        out.writeInt((int) sequence);
        out.writeShort(port);
        out.writeShort(0);
        out.writeLong(sendTimeNanos);
        return out;
    }

    /**
     * This packet as read on this node's clock, given the link's {@code clockOffsetNanos} (the
     * neighbour's clock minus this node's); the send time in {@code body} is rewritten to match.
     */
    RealTimePacket onThisClock(ByteBuf body, long clockOffsetNanos) {
        if (clockOffsetNanos == 0) {
            return this;
        }
        long sendTime = sendTimeNanos - clockOffsetNanos;
        body.setLong(body.readerIndex() + OFFSET_SEND_TIME, sendTime);
        return new RealTimePacket(metric, hopLimit, recovered, source, group, sequence, port, sendTime);
    }

    /** Rewrites what a relay changes, in a copy of a received packet the relay owns. */
    static void relayed(ByteBuf copy, int hopLimit, boolean recovered) {
        int at = copy.readerIndex();
        copy.setByte(at + OFFSET_HOP_LIMIT, hopLimit);
        copy.setByte(at + OFFSET_FLAGS, recovered ? RECOVERED : 0);
    }

    /**
     * Reads the header of a body without moving its indices.
     *
     * @return null when it is not a well-formed real-time group packet: too short, another version, an
     *     unknown metric or flag, a hop limit of 0, a node or group id 0, reserved bits set
     */
    static RealTimePacket decode(ByteBuf body) {
        int at = body.readerIndex();
        if (body.readableBytes() < HEADER) {
            return null;
        }
        int version = body.getUnsignedByte(at);
        int metric = body.getUnsignedByte(at + 1);
        int hopLimit = body.getUnsignedByte(at + OFFSET_HOP_LIMIT);
        int flags = body.getUnsignedByte(at + OFFSET_FLAGS);
        long source = body.getLong(at + 4);
        long group = body.getLong(at + 12);
        long sequence = body.getUnsignedInt(at + 20);
        int port = body.getUnsignedShort(at + 24);
        int reserved = body.getUnsignedShort(at + 26);
        long sendTime = body.getLong(at + OFFSET_SEND_TIME);
        if (version != VERSION || metric >= METRICS.length || hopLimit == 0 || (flags & ~RECOVERED) != 0
                || source == 0 || group == 0 || reserved != 0) {
            return null;
        }
        return new RealTimePacket(METRICS[metric], hopLimit, (flags & RECOVERED) != 0, new NodeId(source),
                new GroupId(group), sequence, port, sendTime);
    }
}
