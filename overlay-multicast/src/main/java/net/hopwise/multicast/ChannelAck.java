package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The acknowledgement of a link channel (type {@link #TYPE}), in network byte order:
 *
 * <pre>
 *  0  u32 epoch: the channel's, as its data carries it
 *  4  u32 cumulative: every sequence before it arrived
 *  8  u16 n, its top bit set when cost updates ride behind the sequences
 * 10  n x u32: sequences at or past the cumulative one that arrived since the last acknowledgement
 *     (then, with the top bit of n: u16 length and that many bytes of cost updates, see {@link #CARRIED})
 * </pre>
 *
 * <p>Data on a channel (type {@link #DATA}) is an 8-byte header, u32 epoch and u32 sequence, in front
 * of a group datagram as {@link MulticastPacket} describes it. Epochs have 31 bits: the top bit of the
 * first word says that cost updates ride between the header and the datagram, as a u16 length and
 * that many bytes. Cost updates ride on what crosses a link anyway, as the thesis's did ("piggy-backed
 * with the data packets whenever possible"), instead of costing a datagram and its headers each.
 */
record ChannelAck(int epoch, int cumulative, int[] sequences) {
    static final int DATA = 82;
    static final int TYPE = 83;
    static final int DATA_HEADER = 8;
    static final int HEADER = 10;
    /** The flag, on a data packet's epoch word and an acknowledgement's count, that cost updates ride along. */
    static final int CARRIED = 0x8000;
    static final int DATA_CARRIED = 0x8000_0000;
    /** The u16 length in front of the cost updates that ride along. */
    static final int CARRIED_HEADER = 2;

    static int capacity(int maxBody) {
        return Math.min(0x7FFF, Math.max(0, (maxBody - HEADER) / 4));
    }

    int size() {
        return HEADER + 4 * sequences.length;
    }

    ByteBuf encode(ByteBufAllocator allocator) {
        return encode(allocator, null);
    }

    /**
     * @param carried cost updates to ride along (their u16 length included), or null; released here
     */
    ByteBuf encode(ByteBufAllocator allocator, ByteBuf carried) {
        ByteBuf out = allocator.buffer(size() + (carried == null ? 0 : carried.readableBytes()));
        out.writeInt(epoch);
        out.writeInt(cumulative);
        out.writeShort(sequences.length | (carried == null ? 0 : CARRIED));
        for (int s : sequences) {
            out.writeInt(s);
        }
        if (carried != null) {
            out.writeBytes(carried);
            carried.release();
        }
        return out;
    }

    /**
     * The cost updates that ride on an acknowledgement, without their length (a view without a
     * reference of its own); empty when none do. Only for a body {@link #decode} took.
     */
    static ByteBuf carried(ByteBuf body) {
        int at = body.readerIndex();
        int n = body.getUnsignedShort(at + 8);
        if ((n & CARRIED) == 0) {
            return body.slice(at, 0);
        }
        int from = at + HEADER + 4 * (n & ~CARRIED) + CARRIED_HEADER;
        return body.slice(from, body.writerIndex() - from);
    }

    /**
     * @return null unless the length is exactly the header and its n entries, and the length of the
     *     cost updates riding along when the flag says they do
     */
    static ChannelAck decode(ByteBuf body) {
        int at = body.readerIndex();
        if (body.readableBytes() < HEADER) {
            return null;
        }
        int word = body.getUnsignedShort(at + 8);
        int n = word & ~CARRIED;
        int length = HEADER + 4 * n;
        if ((word & CARRIED) != 0) {
            if (body.readableBytes() < length + CARRIED_HEADER) {
                return null;
            }
            length += CARRIED_HEADER + body.getUnsignedShort(at + length);
        }
        if (body.readableBytes() != length) {
            return null;
        }
        int[] sequences = new int[n];
        for (int i = 0; i < n; i++) {
            sequences[i] = body.getInt(at + HEADER + 4 * i);
        }
        return new ChannelAck(body.getInt(at), body.getInt(at + 4), sequences);
    }
}
