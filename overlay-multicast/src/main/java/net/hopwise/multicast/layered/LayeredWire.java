package net.hopwise.multicast.layered;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.BitSet;
import net.hopwise.multicast.GroupId;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The layered service's packets on overlay links. Every body starts with one envelope, in network
 * byte order:
 *
 * <pre>
 *  0 u8  version: 1
 *  1 u8  metric: the {@link RoutingMetric} ordinal of the source's tree
 *  2 u8  hop limit: hops the packet may still take, at least 1
 *  3 u8  0
 *  4 i64 source node
 * 12 i64 group
 * 20 u16 port
 * 22 u16 0
 * </pre>
 *
 * then, by packet type: {@link #DATA} a {@link LayeredPacket} header, a u16 count of application
 * bytes, those bytes and padding up to the session's packet size; {@link #ANNOUNCE} a {@link
 * SessionAnnouncement}, exactly; {@link #SUBSCRIBE} (one hop, child to parent) a u32 session id, a
 * u16 layer count L and L bits, base layer in the lowest bit of the first byte: every layer the
 * child needs now. A subscription states the child's whole set rather than one graft or prune, so a
 * lost one is repaired by the next (they are repeated while the set is not empty).
 */
final class LayeredWire {
    /** Past the types the rest of the multicast module uses (80-83, 84-87, 88-90). */
    static final int DATA = 92;
    static final int ANNOUNCE = 93;
    static final int SUBSCRIBE = 94;
    static final int VERSION = 1;
    static final int ENVELOPE = 24;
    static final int DATA_HEADER = ENVELOPE + LayeredPacket.HEADER + 2;
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    private LayeredWire() {
    }

    record Envelope(RoutingMetric metric, int hopLimit, NodeId source, GroupId group, int port) {
        Envelope withHopLimit(int limit) {
            return new Envelope(metric, limit, source, group, port);
        }

        void encode(ByteBuf out) {
            out.writeByte(VERSION);
            out.writeByte(metric.ordinal());
            out.writeByte(hopLimit);
            out.writeByte(0);
            out.writeLong(source.value());
            out.writeLong(group.value());
            out.writeShort(port);
            out.writeShort(0);
        }
    }

    /** The envelope at the reader index, without moving it; null when it is not one this version wrote. */
    static Envelope envelope(ByteBuf in) {
        if (in.readableBytes() < ENVELOPE) {
            return null;
        }
        int at = in.readerIndex();
        int metric = in.getUnsignedByte(at + 1);
        int hops = in.getUnsignedByte(at + 2);
        long source = in.getLong(at + 4);
        long group = in.getLong(at + 12);
        if (in.getUnsignedByte(at) != VERSION || metric >= METRICS.length || hops == 0 || in.getUnsignedByte(at + 3) != 0
                || source == 0 || group == 0 || in.getUnsignedShort(at + 22) != 0) {
            return null;
        }
        return new Envelope(METRICS[metric], hops, new NodeId(source), new GroupId(group), in.getUnsignedShort(at + 20));
    }

    /** A data body of exactly {@code bodyBytes}: the packet, the payload (may be null) and zero padding. */
    static ByteBuf data(ByteBufAllocator alloc, Envelope e, LayeredPacket p, byte[] payload, int bodyBytes) {
        int length = payload == null ? 0 : payload.length;
        if (DATA_HEADER + length > bodyBytes) {
            throw new IllegalArgumentException("a payload of " + length + " bytes does not fit a packet of " + bodyBytes);
        }
        ByteBuf out = alloc.buffer(bodyBytes);
        e.encode(out);
        p.encode(out);
        out.writeShort(length);
        if (length > 0) {
            out.writeBytes(payload);
        }
        out.writeZero(bodyBytes - out.writerIndex());
        return out;
    }

    /** The data packet after the envelope, or null when malformed. */
    static LayeredPacket packet(ByteBuf in) {
        if (in.readableBytes() < DATA_HEADER) {
            return null;
        }
        LayeredPacket p = LayeredPacket.decode(in.slice(in.readerIndex() + ENVELOPE, LayeredPacket.HEADER));
        if (p == null || payloadLength(in) > in.readableBytes() - DATA_HEADER) {
            return null;
        }
        return p;
    }

    /**
     * The data packet of {@code in} read on this node's clock, given the link's clock offset (the
     * neighbour's clock minus this node's, nanoseconds): its SCT, and the SCT in {@code in}, moved by
     * it, so that receivers and the next hops read the source's send time on their own clocks.
     */
    static LayeredPacket onThisClock(ByteBuf in, LayeredPacket p, long clockOffsetNanos) {
        long shiftMicros = Math.floorDiv(clockOffsetNanos, 1000);
        if (shiftMicros == 0) {
            return p;
        }
        long sct = p.sendTimeMicros() - shiftMicros;
        in.setLong(in.readerIndex() + ENVELOPE + LayeredPacket.OFFSET_SCT, sct);
        return new LayeredPacket(p.sessionId(), p.objectId(), p.layer(), p.sequence(), sct, p.firstOfBunch(),
                p.bunchLength(), p.epoch());
    }

    static int payloadLength(ByteBuf in) {
        return in.getUnsignedShort(in.readerIndex() + ENVELOPE + LayeredPacket.HEADER);
    }

    /** The application bytes of a data body {@link #packet} accepted. */
    static byte[] payload(ByteBuf in) {
        byte[] bytes = new byte[payloadLength(in)];
        in.getBytes(in.readerIndex() + DATA_HEADER, bytes);
        return bytes;
    }

    static ByteBuf announce(ByteBufAllocator alloc, Envelope e, SessionAnnouncement a) {
        ByteBuf out = alloc.buffer(ENVELOPE + a.encodedLength());
        e.encode(out);
        a.encode(out);
        return out;
    }

    /** The announcement after the envelope, or null when malformed. */
    static SessionAnnouncement announcement(ByteBuf in) {
        if (in.readableBytes() < ENVELOPE) {
            return null;
        }
        return SessionAnnouncement.decode(in.slice(in.readerIndex() + ENVELOPE, in.readableBytes() - ENVELOPE));
    }

    /** A child's whole set of needed layers. */
    record Subscription(int sessionId, int layers, BitSet held) {}

    static ByteBuf subscribe(ByteBufAllocator alloc, Envelope e, int sessionId, int layers, BitSet held) {
        int bytes = (layers + 7) / 8;
        ByteBuf out = alloc.buffer(ENVELOPE + 6 + bytes);
        e.encode(out);
        out.writeInt(sessionId);
        out.writeShort(layers);
        byte[] bits = held.toByteArray();
        for (int i = 0; i < bytes; i++) {
            out.writeByte(i < bits.length ? bits[i] : 0);
        }
        return out;
    }

    /** The subscription after the envelope, or null when malformed (bits past L set, length not exact). */
    static Subscription subscription(ByteBuf in) {
        int at = in.readerIndex() + ENVELOPE;
        if (in.readableBytes() < ENVELOPE + 6) {
            return null;
        }
        int layers = in.getUnsignedShort(at + 4);
        int bytes = (layers + 7) / 8;
        if (layers < 1 || layers > SessionAnnouncement.MAX_LAYERS || in.readableBytes() != ENVELOPE + 6 + bytes) {
            return null;
        }
        byte[] bits = new byte[bytes];
        in.getBytes(at + 6, bits);
        BitSet held = BitSet.valueOf(bits);
        if (held.length() > layers) {
            return null;
        }
        return new Subscription(in.getInt(at), layers, held);
    }
}
