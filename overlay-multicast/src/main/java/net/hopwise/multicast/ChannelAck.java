package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The acknowledgement of a link channel (type {@link #TYPE}), in network byte order:
 *
 * <pre>
 *  0  u32 epoch: the channel's, as its data carries it
 *  4  u32 cumulative: every sequence before it arrived
 *  8  u16 n
 * 10  n x u32: sequences at or past the cumulative one that arrived since the last acknowledgement
 * </pre>
 *
 * <p>Data on a channel (type {@link #DATA}) is an 8-byte header, u32 epoch and u32 sequence, in front
 * of a group datagram as {@link MulticastPacket} describes it.
 */
record ChannelAck(int epoch, int cumulative, int[] sequences) {
    static final int DATA = 82;
    static final int TYPE = 83;
    static final int DATA_HEADER = 8;
    static final int HEADER = 10;

    static int capacity(int maxBody) {
        return Math.min(0xFFFF, Math.max(0, (maxBody - HEADER) / 4));
    }

    ByteBuf encode(ByteBufAllocator allocator) {
        ByteBuf out = allocator.buffer(HEADER + 4 * sequences.length);
        out.writeInt(epoch);
        out.writeInt(cumulative);
        out.writeShort(sequences.length);
        for (int s : sequences) {
            out.writeInt(s);
        }
        return out;
    }

    /** @return null unless the length is exactly the header and its n entries */
    static ChannelAck decode(ByteBuf body) {
        int at = body.readerIndex();
        if (body.readableBytes() < HEADER) {
            return null;
        }
        int n = body.getUnsignedShort(at + 8);
        if (body.readableBytes() != HEADER + 4 * n) {
            return null;
        }
        int[] sequences = new int[n];
        for (int i = 0; i < n; i++) {
            sequences[i] = body.getInt(at + HEADER + 4 * i);
        }
        return new ChannelAck(body.getInt(at), body.getInt(at + 4), sequences);
    }
}
