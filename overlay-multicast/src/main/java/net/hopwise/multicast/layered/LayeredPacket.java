package net.hopwise.multicast.layered;

import io.netty.buffer.ByteBuf;

/**
 * The header of one layered data packet: the thesis's fields (Table 5-1) plus the session, the
 * bunch length and the announcement epoch. Network byte order, 28 bytes:
 *
 * <pre>
 *  0 u8  version: 1
 *  1 u8  flags: bit 7 first packet of a bunch (FPF), bits 0-3 bunch length B (2..15), others 0
 *  2 u16 LID: the layer, 0 = base
 *  4 u32 session id
 *  8 u32 OID: the object (file or stream) the payload belongs to
 * 12 u32 PSN: per-layer sequence number; the packets of a bunch are consecutive on one layer
 * 16 i64 SCT: the sender's clock at sending, microseconds; each relay reads it onto its own clock
 *       by the link's clock offset, so a receiver reads it on its own
 * 24 u32 epoch: the number of the announcement the sender published last
 * </pre>
 *
 * @param firstOfBunch FPF
 * @param sequence PSN, 0..2^32-1 (wraps)
 * @param sendTimeMicros SCT
 */
public record LayeredPacket(int sessionId, long objectId, int layer, long sequence, long sendTimeMicros,
        boolean firstOfBunch, int bunchLength, long epoch) {
    public static final int VERSION = 1;
    public static final int HEADER = 28;
    static final int OFFSET_SCT = 16;
    public static final int MAX_BUNCH = 15;
    private static final int FPF = 0x80;

    public LayeredPacket {
        if (layer < 0 || layer > 0xFFFF) {
            throw new IllegalArgumentException("layer must be in 0..65535, got " + layer);
        }
        if (bunchLength < 2 || bunchLength > MAX_BUNCH) {
            throw new IllegalArgumentException("bunchLength must be in 2.." + MAX_BUNCH + ", got " + bunchLength);
        }
        requireU32("objectId", objectId);
        requireU32("sequence", sequence);
        requireU32("epoch", epoch);
    }

    static void requireU32(String name, long v) {
        if (v < 0 || v > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(name + " must be in 0..2^32-1, got " + v);
        }
    }

    /** Writes the header at the writer index of {@code out}. */
    public void encode(ByteBuf out) {
        out.writeByte(VERSION);
        out.writeByte((firstOfBunch ? FPF : 0) | bunchLength);
        out.writeShort(layer);
        out.writeInt(sessionId);
        out.writeInt((int) objectId);
        out.writeInt((int) sequence);
        out.writeLong(sendTimeMicros);
        out.writeInt((int) epoch);
    }

    /**
     * Reads a header from the reader index of {@code in} without moving it; null for anything that
     * is not a header this version wrote (short, other version, reserved bits set, bad bunch length).
     * The payload after the header is the caller's.
     */
    public static LayeredPacket decode(ByteBuf in) {
        if (in == null || in.readableBytes() < HEADER) {
            return null;
        }
        int at = in.readerIndex();
        if (in.getUnsignedByte(at) != VERSION) {
            return null;
        }
        int flags = in.getUnsignedByte(at + 1);
        int bunch = flags & 0x0F;
        if ((flags & 0x70) != 0 || bunch < 2) {
            return null;
        }
        return new LayeredPacket(in.getInt(at + 4), in.getUnsignedInt(at + 8), in.getUnsignedShort(at + 2),
                in.getUnsignedInt(at + 12), in.getLong(at + 16), (flags & FPF) != 0, bunch, in.getUnsignedInt(at + 24));
    }
}
