package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The header of a reliable group packet (type {@link #DATA}, carried inside a link channel whose
 * 8-byte header comes first), in network byte order, followed by the fragment's bytes:
 *
 * <pre>
 *  0  u8  version: 1
 *  1  u8  metric: the {@link RoutingMetric} ordinal whose trees the stream follows
 *  2  u16 port
 *  4  i64 source
 * 12  i64 group
 * 20  u32 epoch: the stream's, new when the source starts it again
 * 24  i64 sequence: the packet's place in the stream, from 0
 * 32  i64 horizon: where a member node that knows nothing of the stream yet starts
 * 40  u16 fragment index, below the count
 * 42  u16 fragment count, at least 1
 * 44  the fragment's bytes
 * </pre>
 *
 * <p>Fragments of one message have consecutive sequences, the first at {@code sequence - index}.
 */
record ReliablePacket(StreamKey key, int epoch, long sequence, long horizon, int fragment, int fragments) {
    static final int DATA = 88;
    static final int ACK = 89;
    static final int VERSION = 1;
    static final int HEADER = 44;
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    ByteBuf encodeHeader(ByteBufAllocator allocator, int room) {
        ByteBuf out = allocator.buffer(HEADER + room);
        out.writeByte(VERSION);
        out.writeByte(key.metric().ordinal());
        out.writeShort(key.port());
        out.writeLong(key.source().value());
        out.writeLong(key.group().value());
        out.writeInt(epoch);
        out.writeLong(sequence);
        out.writeLong(horizon);
        out.writeShort(fragment);
        out.writeShort(fragments);
        return out;
    }

    /** The first sequence of this packet's message. */
    long messageStart() {
        return sequence - fragment;
    }

    /** The fragment index of a packet {@link #decode} accepted, read without decoding the rest. */
    static int fragmentIndex(ByteBuf packet) {
        return packet.getUnsignedShort(packet.readerIndex() + 40);
    }

    /** The fragment count of a packet {@link #decode} accepted, read without decoding the rest. */
    static int fragmentCount(ByteBuf packet) {
        return packet.getUnsignedShort(packet.readerIndex() + 42);
    }

    /**
     * Reads the header without moving the indices.
     *
     * @return null when malformed: short, another version or metric, ids of 0, a negative sequence or
     *     horizon, a fragment index not below a count of at least 1
     */
    static ReliablePacket decode(ByteBuf body) {
        if (body.readableBytes() < HEADER) {
            return null;
        }
        int at = body.readerIndex();
        int metric = body.getUnsignedByte(at + 1);
        long source = body.getLong(at + 4);
        long group = body.getLong(at + 12);
        long sequence = body.getLong(at + 24);
        long horizon = body.getLong(at + 32);
        int fragment = body.getUnsignedShort(at + 40);
        int fragments = body.getUnsignedShort(at + 42);
        if (body.getUnsignedByte(at) != VERSION || metric >= METRICS.length || source == 0 || group == 0
                || sequence < 0 || horizon < 0 || fragments == 0 || fragment >= fragments || fragment > sequence) {
            return null;
        }
        StreamKey key = new StreamKey(new NodeId(source), new GroupId(group), body.getUnsignedShort(at + 2),
                METRICS[metric]);
        return new ReliablePacket(key, body.getInt(at + 20), sequence, horizon, fragment, fragments);
    }
}
