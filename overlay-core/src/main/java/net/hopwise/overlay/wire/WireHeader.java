package net.hopwise.overlay.wire;

import io.netty.buffer.ByteBuf;

/**
 * The fixed header every Hopwise datagram starts with, in network byte order.
 *
 * <pre>
 *  0  u16 magic 0x4857 ("HW")
 *  2  u8  version (1)
 *  3  u8  packet type ({@link PacketType})
 *  4  u16 flags (per type; 0 where unused)
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

    private WireHeader() {}

    /** Writes a header at the writer index; the body length is patched by {@link #finish}. */
    public static void write(ByteBuf out, PacketType type, int flags, long sender, long receiver, long linkSequence) {
        out.writeShort(MAGIC);
        out.writeByte(VERSION);
        out.writeByte(type.code());
        out.writeShort(flags);
        out.writeShort(0);
        out.writeLong(sender);
        out.writeLong(receiver);
        out.writeInt((int) linkSequence);
    }

    /** Sets the body length of the packet that starts at {@code start} from the writer index. */
    public static void finish(ByteBuf packet, int start) {
        packet.setShort(start + OFFSET_BODY_LENGTH, packet.writerIndex() - start - LENGTH);
    }
}
