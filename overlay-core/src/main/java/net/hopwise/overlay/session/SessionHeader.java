package net.hopwise.overlay.session;

import io.netty.buffer.ByteBuf;
import net.hopwise.overlay.wire.DataHeader;
import net.hopwise.overlay.wire.HeaderBytes;

/**
 * The end-to-end session header, right after the data header of a reliable routed packet, in
 * network byte order. Offsets here are from the start of the routed packet (the data header).
 *
 * <pre>
 *  0  data header (30 bytes): origin, destination, ports, hop limit, metric
 * 30  u8  kind: 1 data, 2 acknowledgement only
 * 31  u8  congestion mark 0-3: raised (never lowered) by every node whose link queue is long
 * 32  u8  flags: 1 end of message, 2 acknowledgement fields valid
 * 33  u8  acknowledgement interval the sender asks for, in packets (1-255)
 * 34  i64 incarnation of the data stream carried (0 in an acknowledgement only)
 * 42  u32 end-to-end sequence number
 * 46  i64 incarnation of the stream acknowledged
 * 54  u32 cumulative acknowledgement: next sequence number expected
 * 58  u16 advertised window: packets beyond it the receiving edge can still take
 * 60  u8  congestion mark echoed back to the sender
 * 61  u8  reserved, 0
 * 62  payload
 * </pre>
 *
 * <p>Sessions are bidirectional: data of one direction carries the acknowledgement of the other.
 */
public final class SessionHeader {
    public static final int KIND_DATA = 1;
    public static final int KIND_ACK = 2;
    public static final int FLAG_END_OF_MESSAGE = 1;
    public static final int FLAG_ACK = 2;

    public static final int OFFSET_KIND = DataHeader.LENGTH;
    public static final int OFFSET_MARK = DataHeader.LENGTH + 1;
    public static final int OFFSET_FLAGS = DataHeader.LENGTH + 2;
    public static final int OFFSET_ACK_INTERVAL = DataHeader.LENGTH + 3;
    public static final int OFFSET_INCARNATION = DataHeader.LENGTH + 4;
    public static final int OFFSET_SEQUENCE = DataHeader.LENGTH + 12;
    public static final int OFFSET_ACK_INCARNATION = DataHeader.LENGTH + 16;
    public static final int OFFSET_CUMULATIVE = DataHeader.LENGTH + 24;
    public static final int OFFSET_WINDOW = DataHeader.LENGTH + 28;
    public static final int OFFSET_ECHO = DataHeader.LENGTH + 30;
    /** Bytes of this header. */
    public static final int LENGTH = 32;
    /** Where the payload starts in the routed packet. */
    public static final int PAYLOAD_OFFSET = DataHeader.LENGTH + LENGTH;

    private SessionHeader() {}

    /** Writes the header after a data header already written to {@code out}. */
    public static void write(HeaderBytes out, int kind, int flags, int ackInterval, long incarnation, int sequence,
            long ackIncarnation, int cumulative, int window, int echo) {
        long first = ((long) (kind & 0xFF) << 24 | (flags & 0xFF) << 8 | (ackInterval & 0xFF)) << 32;
        out.putLong(first | incarnation >>> 32);
        out.putLong(incarnation << 32 | (sequence & 0xFFFF_FFFFL));
        out.putLong(ackIncarnation);
        out.putLong((long) cumulative << 32 | (window & 0xFFFFL) << 16 | (echo & 0xFFL) << 8);
    }

    /** Whether a routed packet is long enough and its kind and mark make sense. */
    public static boolean isWellFormed(ByteBuf packet) {
        if (packet.readableBytes() < PAYLOAD_OFFSET) {
            return false;
        }
        int kind = kind(packet);
        return (kind == KIND_DATA || kind == KIND_ACK) && mark(packet) <= 3 && echo(packet) <= 3
                && (kind == KIND_ACK ? (flags(packet) & FLAG_ACK) != 0 : incarnation(packet) != 0)
                && ackInterval(packet) >= 1;
    }

    private static int u8(ByteBuf p, int offset) {
        return p.getUnsignedByte(p.readerIndex() + offset);
    }

    public static int kind(ByteBuf p) {
        return u8(p, OFFSET_KIND);
    }

    public static int mark(ByteBuf p) {
        return u8(p, OFFSET_MARK);
    }

    /** Raises the congestion mark to {@code level} if it is lower: marks only grow along a path. */
    public static void raiseMark(ByteBuf p, int level) {
        if (level > mark(p)) {
            p.setByte(p.readerIndex() + OFFSET_MARK, level);
        }
    }

    public static int flags(ByteBuf p) {
        return u8(p, OFFSET_FLAGS);
    }

    public static int ackInterval(ByteBuf p) {
        return u8(p, OFFSET_ACK_INTERVAL);
    }

    public static long incarnation(ByteBuf p) {
        return p.getLong(p.readerIndex() + OFFSET_INCARNATION);
    }

    public static int sequence(ByteBuf p) {
        return p.getInt(p.readerIndex() + OFFSET_SEQUENCE);
    }

    public static long ackIncarnation(ByteBuf p) {
        return p.getLong(p.readerIndex() + OFFSET_ACK_INCARNATION);
    }

    public static int cumulative(ByteBuf p) {
        return p.getInt(p.readerIndex() + OFFSET_CUMULATIVE);
    }

    public static int window(ByteBuf p) {
        return p.getUnsignedShort(p.readerIndex() + OFFSET_WINDOW);
    }

    public static int echo(ByteBuf p) {
        return u8(p, OFFSET_ECHO);
    }
}
