package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The header of a group datagram (type {@link #DATA}), in network byte order, followed by the
 * fragment's bytes:
 *
 * <pre>
 *  0  u8  version: 1
 *  1  u8  metric: the {@link RoutingMetric} ordinal whose trees the message follows
 *  2  u8  hop limit: hops the datagram may still take, at least 1 on the wire
 *  3  u8  0
 *  4  i64 source: the node whose application sent the message
 * 12  i64 group
 * 20  u32 message id: the source's number for the message
 * 24  u16 port
 * 26  u16 fragment index, below the count
 * 28  u16 fragment count, at least 1
 * 30  the fragment's bytes (what is left of the body)
 * </pre>
 *
 * <p>A relay rewrites only the hop limit: it sends a new header in front of a view of the received
 * fragment, so the bytes of a message are never copied on the way.
 */
record MulticastPacket(RoutingMetric metric, int hopLimit, NodeId source, GroupId group, long messageId, int port,
        int fragment, int fragments) {
    /** Past the trace module's 64 and 65, so both can run on one node. */
    static final int DATA = 80;
    static final int VERSION = 1;
    static final int HEADER = 30;
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    /** Writes the header to a new buffer of {@code HEADER + room} capacity. */
    ByteBuf encodeHeader(ByteBufAllocator allocator, int room) {
        ByteBuf out = allocator.buffer(HEADER + room);
        out.writeByte(VERSION);
        out.writeByte(metric.ordinal());
        out.writeByte(hopLimit);
        out.writeByte(0);
        out.writeLong(source.value());
        out.writeLong(group.value());
        out.writeInt((int) messageId);
        out.writeShort(port);
        out.writeShort(fragment);
        out.writeShort(fragments);
        return out;
    }

    MulticastPacket withHopLimit(int limit) {
        return new MulticastPacket(metric, limit, source, group, messageId, port, fragment, fragments);
    }

    /**
     * Reads the header of a body without moving its indices.
     *
     * @return null when it is not a well-formed group datagram: too short, another version, an unknown
     *     metric, a hop limit of 0, a node or group id 0, a fragment index not below a count of at least 1
     */
    static MulticastPacket decode(ByteBuf body) {
        int at = body.readerIndex();
        if (body.readableBytes() < HEADER) {
            return null;
        }
        int version = body.getUnsignedByte(at);
        int metric = body.getUnsignedByte(at + 1);
        int hopLimit = body.getUnsignedByte(at + 2);
        int reserved = body.getUnsignedByte(at + 3);
        long source = body.getLong(at + 4);
        long group = body.getLong(at + 12);
        long messageId = body.getUnsignedInt(at + 20);
        int port = body.getUnsignedShort(at + 24);
        int fragment = body.getUnsignedShort(at + 26);
        int fragments = body.getUnsignedShort(at + 28);
        if (version != VERSION || metric >= METRICS.length || hopLimit == 0 || reserved != 0 || source == 0
                || group == 0 || fragments == 0 || fragment >= fragments) {
            return null;
        }
        return new MulticastPacket(METRICS[metric], hopLimit, new NodeId(source), new GroupId(group), messageId, port,
                fragment, fragments);
    }
}
