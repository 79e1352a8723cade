package net.hopwise.overlay.wire;

import io.netty.buffer.ByteBuf;

/**
 * The fixed header every Hopwise datagram starts with, in network byte order.
 *
 * <pre>
 *  0  u16 magic 0x4857 ("HW")
 *  2  u8  version (1)
 *  3  u8  packet type ({@link PacketType})
 *  4  u16 flags (per type; 0 where unused): {@link PacketType#REALTIME_DATA} marks a retransmitted
 *         copy and a packet recovered earlier on its path ({@code realtime.RealTimeCodec})
 *  6  u16 body length in bytes, after this header
 *  8  i64 sender: the node that put the packet on this link (previous hop, not the origin)
 * 16  i64 receiver: the neighbour the packet is meant for; 0 when not yet known
 * 24  u32 link sequence: counts every packet sent on this link in this direction
 * 28  body
 * </pre>
 *
 * <p>The explicit body length lets a receiver tell truncation from trailing garbage; identities are
 * node ids, never addresses, so a node can change address or family without losing its links.
 */
public final class WireHeader {
    public static final int MAGIC = 0x4857;
    public static final int VERSION = 1;
    public static final int LENGTH = 28;

    public static final int OFFSET_MAGIC = 0;
    public static final int OFFSET_VERSION = 2;
    public static final int OFFSET_TYPE = 3;
    public static final int OFFSET_FLAGS = 4;
    public static final int OFFSET_BODY_LENGTH = 6;
    public static final int OFFSET_SENDER = 8;
    public static final int OFFSET_RECEIVER = 16;
    public static final int OFFSET_LINK_SEQUENCE = 24;

    /**
     * Largest datagram a node sends: 1200 bytes stays under the IPv6 minimum MTU of 1280 less the IP
     * and UDP headers, so no path fragments our packets at the IP layer.
     */
    public static final int MAX_DATAGRAM = 1200;

    /** Largest body that fits in one datagram. */
    public static final int MAX_BODY = MAX_DATAGRAM - LENGTH;

    /** First packet type code reserved for modules: the header check lets these through to the node. */
    public static final int FIRST_MODULE_TYPE = 64;
    /** Last packet type code reserved for modules. */
    public static final int LAST_MODULE_TYPE = 127;

    private WireHeader() {}

    /** Writes a header at the writer index; the body length is patched by {@link #finish}. */
    public static void write(ByteBuf out, PacketType type, int flags, long sender, long receiver, long linkSequence) {
        // Four writes instead of eight: this runs for every datagram, and each write through a
        // buffer view pays its own bounds and liveness checks.
        out.writeLong(firstWord(type, flags, 0));
        out.writeLong(sender);
        out.writeLong(receiver);
        out.writeInt((int) linkSequence);
    }

    /** Writes a header with its body length already known, for packets whose headers are assembled apart. */
    public static void write(HeaderBytes out, PacketType type, int flags, int bodyLength, long sender, long receiver,
            long linkSequence) {
        out.putLong(firstWord(type, flags, bodyLength));
        out.putLong(sender);
        out.putLong(receiver);
        out.putInt((int) linkSequence);
    }

    /** Writes a header of any type code (a module's included) with its body length already known. */
    public static void write(ByteBuf out, int type, int flags, int bodyLength, long sender, long receiver,
            long linkSequence) {
        out.writeLong(firstWord(type, flags, bodyLength));
        out.writeLong(sender);
        out.writeLong(receiver);
        out.writeInt((int) linkSequence);
    }

    private static long firstWord(PacketType type, int flags, int bodyLength) {
        return firstWord(type.code(), flags, bodyLength);
    }

    private static long firstWord(int type, int flags, int bodyLength) {
        return (long) MAGIC << 48 | (long) VERSION << 40 | (long) (type & 0xFF) << 32 | (flags & 0xFFFFL) << 16
                | (bodyLength & 0xFFFFL);
    }

    /** Whether a type code is in the range reserved for modules. */
    public static boolean isModuleType(int code) {
        return code >= FIRST_MODULE_TYPE && code <= LAST_MODULE_TYPE;
    }

    /**
     * Checks the header of a received datagram, without moving any index.
     *
     * @return null when the header is sound and the datagram holds exactly the declared body (trailing
     *     bytes are tolerated and ignored), otherwise the reason to drop it
     */
    public static DropReason check(ByteBuf datagram) {
        int start = datagram.readerIndex();
        int length = datagram.readableBytes();
        if (length > MAX_DATAGRAM) {
            return DropReason.OVERSIZED;
        }
        if (length < LENGTH) {
            return length >= 2 && datagram.getUnsignedShort(start) != MAGIC ? DropReason.BAD_MAGIC : DropReason.TRUNCATED;
        }
        if (datagram.getUnsignedShort(start + OFFSET_MAGIC) != MAGIC) {
            return DropReason.BAD_MAGIC;
        }
        if (datagram.getUnsignedByte(start + OFFSET_VERSION) != VERSION) {
            return DropReason.UNKNOWN_VERSION;
        }
        int type = datagram.getUnsignedByte(start + OFFSET_TYPE);
        if (PacketType.ofCode(type) == null && !isModuleType(type)) {
            // A module's code passes here; the node drops it as unknown unless a module claimed it.
            return DropReason.UNKNOWN_TYPE;
        }
        if (datagram.getUnsignedShort(start + OFFSET_BODY_LENGTH) > length - LENGTH) {
            return DropReason.TRUNCATED;
        }
        return null;
    }

    /** The type code: a {@link PacketType}'s, or a module's. */
    public static int typeCode(ByteBuf datagram) {
        return datagram.getUnsignedByte(datagram.readerIndex() + OFFSET_TYPE);
    }

    public static PacketType type(ByteBuf datagram) {
        return PacketType.ofCode(datagram.getUnsignedByte(datagram.readerIndex() + OFFSET_TYPE));
    }

    public static int flags(ByteBuf datagram) {
        return datagram.getUnsignedShort(datagram.readerIndex() + OFFSET_FLAGS);
    }

    public static int bodyLength(ByteBuf datagram) {
        return datagram.getUnsignedShort(datagram.readerIndex() + OFFSET_BODY_LENGTH);
    }

    public static long sender(ByteBuf datagram) {
        return datagram.getLong(datagram.readerIndex() + OFFSET_SENDER);
    }

    public static long receiver(ByteBuf datagram) {
        return datagram.getLong(datagram.readerIndex() + OFFSET_RECEIVER);
    }

    public static long linkSequence(ByteBuf datagram) {
        return datagram.getUnsignedInt(datagram.readerIndex() + OFFSET_LINK_SEQUENCE);
    }

    /** Rewrites the flags of a packet in place. */
    public static void setFlags(ByteBuf datagram, int flags) {
        datagram.setShort(datagram.readerIndex() + OFFSET_FLAGS, flags);
    }

    /** Re-stamps the link fields of a packet that is being forwarded on another link, in place. */
    public static void restamp(ByteBuf datagram, long sender, long receiver, long linkSequence) {
        int start = datagram.readerIndex();
        datagram.setLong(start + OFFSET_SENDER, sender);
        datagram.setLong(start + OFFSET_RECEIVER, receiver);
        datagram.setInt(start + OFFSET_LINK_SEQUENCE, (int) linkSequence);
    }

    /** A view of the body only: shares the datagram's memory, takes no reference of its own. */
    public static ByteBuf body(ByteBuf datagram) {
        return datagram.slice(datagram.readerIndex() + LENGTH, bodyLength(datagram));
    }

    /** Sets the body length of the packet that starts at {@code start} from the writer index. */
    public static void finish(ByteBuf packet, int start) {
        packet.setShort(start + OFFSET_BODY_LENGTH, packet.writerIndex() - start - LENGTH);
    }
}
