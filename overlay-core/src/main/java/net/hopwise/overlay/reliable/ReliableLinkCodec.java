package net.hopwise.overlay.reliable;

import io.netty.buffer.ByteBuf;
import net.hopwise.overlay.wire.HeaderBytes;

/**
 * Wire form of the reliable channel, in network byte order. Decoders are total: they return null for
 * bytes that do not parse and never throw; nothing here takes or releases a buffer reference.
 *
 * <pre>
 * acknowledgement (the whole body of LINK_ACK, and inside RELIABLE_DATA):
 *  0  i64 epoch acknowledged (0: nothing received yet)
 *  8  u32 cumulative: next link-reliable sequence number expected
 * 12  u8  n: selective-acknowledgement blocks (at most 16)
 * 13  n x (u32 start, u32 end exclusive)
 *
 * RELIABLE_DATA body:
 *  0  i64 sender epoch: changes whenever the sender starts its sequence numbers afresh
 *  8  u32 link-reliable sequence number (counts only reliable packets, unlike the header's)
 * 12  u32 the sender's lowest unacknowledged sequence number: a receiver that lost its state (a
 *         restart the hellos did not notice) resumes from it instead of waiting for the past
 * 16  acknowledgement of the other direction, as above
 *  .. the routed packet: data header, session header, payload
 * </pre>
 */
public final class ReliableLinkCodec {
    /** Fixed part of an acknowledgement. */
    public static final int ACK_FIXED = 13;
    public static final int BLOCK_BYTES = 8;
    public static final int MAX_BLOCKS = 16;
    /** Fixed part of a reliable data body before its acknowledgement. */
    public static final int DATA_FIXED = 16;

    private ReliableLinkCodec() {}

    /** Bytes the acknowledgement part takes with {@code blocks} blocks. */
    public static int ackLength(int blocks) {
        return ACK_FIXED + BLOCK_BYTES * blocks;
    }

    /** Largest reliable header with up to {@code maxBlocks} blocks: what a routed packet must leave room for. */
    public static int maxHeaderLength(int maxBlocks) {
        return DATA_FIXED + ackLength(maxBlocks);
    }

    public static void writeAck(ByteBuf out, long epoch, int cumulative, int[] blocks, int blockCount) {
        HeaderBytes h = new HeaderBytes(ackLength(blockCount));
        writeAck(h, epoch, cumulative, blocks, blockCount);
        h.appendTo(out);
    }

    public static void writeAck(HeaderBytes out, long epoch, int cumulative, int[] blocks, int blockCount) {
        out.putLong(epoch);
        out.putInt(cumulative);
        out.putByte(blockCount);
        for (int i = 0; i < blockCount * 2; i++) {
            out.putInt(blocks[i]);
        }
    }

    public static void writeDataPrefix(ByteBuf out, long epoch, int sequence, int base) {
        out.writeLong(epoch);
        out.writeLong(sequenceAndBase(sequence, base));
    }

    public static void writeDataPrefix(HeaderBytes out, long epoch, int sequence, int base) {
        out.putLong(epoch);
        out.putLong(sequenceAndBase(sequence, base));
    }

    private static long sequenceAndBase(int sequence, int base) {
        return (long) sequence << 32 | (base & 0xFFFF_FFFFL);
    }

    /** Decodes an acknowledgement at {@code offset} of {@code body} into a value; null when malformed. */
    public static LinkAck decodeAck(ByteBuf body, int offset) {
        Reader reader = new Reader();
        if (!reader.readAck(body, offset)) {
            return null;
        }
        return new LinkAck(reader.ackEpoch(), reader.cumulative(), java.util.Arrays.copyOf(reader.blocks(), reader.blockInts()));
    }

    /** A LINK_ACK body; null when malformed. */
    public static LinkAck decodeAck(ByteBuf body) {
        return decodeAck(body, 0);
    }

    /**
     * A reader of reliable data headers and acknowledgements that keeps what it read in its own fields,
     * overwritten by the next read: one per stage, so that the hot path decodes no object per packet.
     * Fields are valid after a read that returned true and until the next read.
     */
    public static final class Reader {
        private long epoch;
        private int sequence;
        private int base;
        private int innerOffset;
        private long ackEpoch;
        private int cumulative;
        private final int[] blocks = new int[2 * MAX_BLOCKS];
        private int blockInts;

        /** Reads an acknowledgement at {@code offset} of {@code body}'s readable bytes; false when malformed. */
        public boolean readAck(ByteBuf body, int offset) {
            int end = body.readerIndex() + body.readableBytes();
            int at = body.readerIndex() + offset;
            if (offset < 0 || end - at < ACK_FIXED) {
                return false;
            }
            int n = body.getUnsignedByte(at + 12);
            if (n > MAX_BLOCKS || end - at < ACK_FIXED + n * BLOCK_BYTES) {
                return false;
            }
            ackEpoch = body.getLong(at);
            cumulative = body.getInt(at + 8);
            blockInts = 2 * n;
            for (int i = 0; i < blockInts; i++) {
                blocks[i] = body.getInt(at + ACK_FIXED + 4 * i);
            }
            return true;
        }

        /** Reads the header of a RELIABLE_DATA body, its acknowledgement included; false when malformed. */
        public boolean readData(ByteBuf body) {
            if (body.readableBytes() < DATA_FIXED + ACK_FIXED || !readAck(body, DATA_FIXED)) {
                return false;
            }
            int at = body.readerIndex();
            epoch = body.getLong(at);
            sequence = body.getInt(at + 8);
            base = body.getInt(at + 12);
            innerOffset = DATA_FIXED + ackLength(blockInts / 2);
            return epoch != 0;
        }

        public long epoch() {
            return epoch;
        }

        public int sequence() {
            return sequence;
        }

        /** The sender's lowest unacknowledged sequence number. */
        public int base() {
            return base;
        }

        /** Where the routed packet starts, from the body's reader index. */
        public int innerOffset() {
            return innerOffset;
        }

        public long ackEpoch() {
            return ackEpoch;
        }

        public int cumulative() {
            return cumulative;
        }

        /** The selective-acknowledgement blocks as (start, end) pairs; only the first {@link #blockInts()} count. */
        int[] blocks() {
            return blocks;
        }

        public int blockInts() {
            return blockInts;
        }
    }
}
