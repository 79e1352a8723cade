package net.hopwise.overlay.realtime;

import io.netty.buffer.ByteBuf;
import net.hopwise.overlay.wire.DataHeader;
import net.hopwise.overlay.wire.WireHeader;

/**
 * Bodies of the real-time packet types, in network byte order.
 *
 * <p>{@link net.hopwise.overlay.wire.PacketType#REALTIME_DATA}:
 * <pre>
 *  0  u32 real-time link sequence: per link and direction, re-stamped by every hop
 *  4  routing header ({@link DataHeader}, 30 bytes): fragment 0 of 1; the message id is the flow's
 *     end-to-end sequence number
 * 34  i64 origin send time, nanoseconds on the sending node's clock (the origin stamps its own; each
 *     hop reads it onto its own clock by the link's clock offset)
 * 42  payload
 * </pre>
 *
 * <p>Its flags, in the wire header ({@link WireHeader#OFFSET_FLAGS}):
 * <pre>
 *  bit 0 {@link #FLAG_RETRANSMITTED}: this copy is the link's retransmission; set by the sending end of
 *        the link on the copy it resends, never forwarded
 *  bit 1 {@link #FLAG_RECOVERED}: a link earlier on the path retransmitted the packet; set by the
 *        node that forwards a packet that arrived retransmitted or already marked, and kept by every
 *        later hop
 *  bits 2-15 0; a packet with any of them set is malformed
 * </pre>
 * The flags live in the wire header rather than the body because a forwarding node re-stamps the
 * header it received in place, so they travel with the packet at no cost in bytes, and because the
 * first of them describes one link's copy, as the header's other fields do. The destination tells a
 * recovered packet by either bit.
 *
 * <p>{@link net.hopwise.overlay.wire.PacketType#REALTIME_NACK}:
 * <pre>
 *  0  u16 count n, 1..{@value #MAX_NACK_SEQUENCES}
 *  2  n x u32 missing real-time link sequence numbers
 * </pre>
 *
 * <p>Real-time packets are never fragmented: a late fragment would make the whole message late.
 * Accessors read at fixed offsets and allocate nothing, so forwarding stays cheap. Decoders are total:
 * malformed bodies give a refusal value, never an exception.
 */
public final class RealTimeCodec {
    public static final int OFFSET_LINK_SEQUENCE = 0;
    public static final int OFFSET_ROUTING = 4;
    public static final int OFFSET_SEND_TIME = OFFSET_ROUTING + DataHeader.LENGTH;
    /** Bytes of a real-time data body before the payload. */
    public static final int HEADER_LENGTH = OFFSET_SEND_TIME + 8;
    /** Largest payload of one real-time packet. */
    public static final int MAX_PAYLOAD = WireHeader.MAX_BODY - HEADER_LENGTH;
    /** Most sequence numbers one negative acknowledgement carries. */
    public static final int MAX_NACK_SEQUENCES = (WireHeader.MAX_BODY - 2) / 4;
    /** Data flag: this copy is a retransmission on the link it travels. */
    public static final int FLAG_RETRANSMITTED = 1;
    /** Data flag: a link before this one on the path retransmitted the packet. */
    public static final int FLAG_RECOVERED = 2;
    private static final int KNOWN_FLAGS = FLAG_RETRANSMITTED | FLAG_RECOVERED;

    private RealTimeCodec() {}

    /** Writes a data body's header (the link sequence is stamped later, per hop). */
    public static void writeData(ByteBuf out, long origin, long destination, int sourcePort, int destinationPort,
            int hopLimit, int metric, long flowSequence, long sendTimeNanos) {
        out.writeInt(0);
        DataHeader.write(out, origin, destination, sourcePort, destinationPort, hopLimit, metric, 0, 1,
                (int) flowSequence);
        out.writeLong(sendTimeNanos);
    }

    /** Whether a data body is long enough and its routing header sound. */
    public static boolean isWellFormed(ByteBuf body, int metricCount) {
        if (body.readableBytes() < HEADER_LENGTH) {
            return false;
        }
        int r = body.readerIndex() + OFFSET_ROUTING;
        return body.getUnsignedShort(r + DataHeader.OFFSET_FRAGMENT_COUNT) == 1
                && body.getUnsignedShort(r + DataHeader.OFFSET_FRAGMENT_INDEX) == 0
                && body.getUnsignedByte(r + DataHeader.OFFSET_METRIC) < metricCount
                && body.getLong(r + DataHeader.OFFSET_ORIGIN) != 0
                && body.getLong(r + DataHeader.OFFSET_DESTINATION) != 0;
    }

    /**
     * Whether a data packet's wire header flags are all ones this version sets; a packet with another
     * is malformed, since its sender speaks a format this node cannot read.
     */
    public static boolean areFlagsKnown(int flags) {
        return (flags & ~KNOWN_FLAGS) == 0;
    }

    /** Whether a data packet with these flags was retransmitted on this link or on one before it. */
    public static boolean isRecovered(int flags) {
        return (flags & KNOWN_FLAGS) != 0;
    }

    /**
     * The flags a node forwards a data packet with: recovered once any link so far resent it, the
     * retransmission itself belonging to the link it arrived on.
     */
    public static int forwardedFlags(int flags) {
        return isRecovered(flags) ? FLAG_RECOVERED : 0;
    }

    public static long linkSequence(ByteBuf body) {
        return body.getUnsignedInt(body.readerIndex() + OFFSET_LINK_SEQUENCE);
    }

    public static void setLinkSequence(ByteBuf body, long seq) {
        body.setInt(body.readerIndex() + OFFSET_LINK_SEQUENCE, (int) seq);
    }

    public static long origin(ByteBuf body) {
        return body.getLong(body.readerIndex() + OFFSET_ROUTING + DataHeader.OFFSET_ORIGIN);
    }

    public static long destination(ByteBuf body) {
        return body.getLong(body.readerIndex() + OFFSET_ROUTING + DataHeader.OFFSET_DESTINATION);
    }

    public static int sourcePort(ByteBuf body) {
        return body.getUnsignedShort(body.readerIndex() + OFFSET_ROUTING + DataHeader.OFFSET_SOURCE_PORT);
    }

    public static int destinationPort(ByteBuf body) {
        return body.getUnsignedShort(body.readerIndex() + OFFSET_ROUTING + DataHeader.OFFSET_DESTINATION_PORT);
    }

    public static int hopLimit(ByteBuf body) {
        return body.getUnsignedByte(body.readerIndex() + OFFSET_ROUTING + DataHeader.OFFSET_HOP_LIMIT);
    }

    public static void setHopLimit(ByteBuf body, int hops) {
        body.setByte(body.readerIndex() + OFFSET_ROUTING + DataHeader.OFFSET_HOP_LIMIT, hops);
    }

    public static int metric(ByteBuf body) {
        return body.getUnsignedByte(body.readerIndex() + OFFSET_ROUTING + DataHeader.OFFSET_METRIC);
    }

    /** The flow's end-to-end sequence number (32 bits). */
    public static long flowSequence(ByteBuf body) {
        return body.getUnsignedInt(body.readerIndex() + OFFSET_ROUTING + DataHeader.OFFSET_MESSAGE_ID);
    }

    public static long sendTime(ByteBuf body) {
        return body.getLong(body.readerIndex() + OFFSET_SEND_TIME);
    }

    /** Rewrites the send time, as a node does when it reads it onto its own clock. */
    public static void setSendTime(ByteBuf body, long sendTimeNanos) {
        body.setLong(body.readerIndex() + OFFSET_SEND_TIME, sendTimeNanos);
    }

    /** A view of the payload; shares memory, takes no reference. */
    public static ByteBuf payload(ByteBuf body) {
        return body.slice(body.readerIndex() + HEADER_LENGTH, body.readableBytes() - HEADER_LENGTH);
    }

    /** Writes a negative acknowledgement for {@code count} (1..{@value #MAX_NACK_SEQUENCES}) numbers. */
    public static void writeNack(ByteBuf out, long[] sequences, int count) {
        if (count < 1 || count > MAX_NACK_SEQUENCES) {
            throw new IllegalArgumentException("a NACK lists 1-" + MAX_NACK_SEQUENCES + " numbers, got " + count);
        }
        out.writeShort(count);
        for (int k = 0; k < count; k++) {
            out.writeInt((int) sequences[k]);
        }
    }

    /**
     * Reads a negative acknowledgement into {@code into} (at least {@value #MAX_NACK_SEQUENCES} long).
     *
     * @return how many numbers it lists, or -1 when the body is malformed
     */
    public static int readNack(ByteBuf body, long[] into) {
        int length = body.readableBytes();
        if (length < 2) {
            return -1;
        }
        int base = body.readerIndex();
        int count = body.getUnsignedShort(base);
        if (count < 1 || count > MAX_NACK_SEQUENCES || length != 2 + 4 * count || into.length < count) {
            return -1;
        }
        for (int k = 0; k < count; k++) {
            into[k] = body.getUnsignedInt(base + 2 + 4 * k);
        }
        return count;
    }
}
