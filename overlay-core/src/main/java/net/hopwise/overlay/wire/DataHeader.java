package net.hopwise.overlay.wire;

import io.netty.buffer.ByteBuf;

/**
 * The routing header at the start of a {@link PacketType#DATA} body, in network byte order.
 *
 * <pre>
 *  0  i64 origin node
 *  8  i64 destination node
 * 16  u16 source port
 * 18  u16 destination port
 * 20  u8  hop limit: decremented by every forwarding node; the packet is dropped at 0
 * 21  u8  routing metric (ordinal of RoutingMetric): every hop routes the packet by the same metric
 * 22  u16 fragment index
 * 24  u16 fragment count (1 for an unfragmented message)
 * 26  u32 message id: per origin, identifies the fragments of one message
 * 30  payload
 * </pre>
 *
 * <p>Accessors read at absolute offsets from the start of the body so that a forwarding node touches
 * only the bytes it needs and never copies the payload.
 */
public final class DataHeader {
    public static final int LENGTH = 30;
    public static final int OFFSET_ORIGIN = 0;
    public static final int OFFSET_DESTINATION = 8;
    public static final int OFFSET_SOURCE_PORT = 16;
    public static final int OFFSET_DESTINATION_PORT = 18;
    public static final int OFFSET_HOP_LIMIT = 20;
    public static final int OFFSET_METRIC = 21;
    public static final int OFFSET_FRAGMENT_INDEX = 22;
    public static final int OFFSET_FRAGMENT_COUNT = 24;
    public static final int OFFSET_MESSAGE_ID = 26;

    /** Largest payload one datagram carries; longer messages are fragmented. */
    public static final int MAX_FRAGMENT_PAYLOAD = WireHeader.MAX_BODY - LENGTH;

    private DataHeader() {}

    public static void write(ByteBuf out, long origin, long destination, int sourcePort, int destinationPort,
            int hopLimit, int metric, int fragmentIndex, int fragmentCount, int messageId) {
        out.writeLong(origin);
        out.writeLong(destination);
        out.writeShort(sourcePort);
        out.writeShort(destinationPort);
        out.writeByte(hopLimit);
        out.writeByte(metric);
        out.writeShort(fragmentIndex);
        out.writeShort(fragmentCount);
        out.writeInt(messageId);
    }

    /**
     * Checks a data body's routing header.
     *
     * @return true when the body is long enough and its fragment fields are consistent
     */
    public static boolean isWellFormed(ByteBuf body, int metricCount) {
        if (body.readableBytes() < LENGTH) {
            return false;
        }
        int base = body.readerIndex();
        int count = body.getUnsignedShort(base + OFFSET_FRAGMENT_COUNT);
        int index = body.getUnsignedShort(base + OFFSET_FRAGMENT_INDEX);
        int metric = body.getUnsignedByte(base + OFFSET_METRIC);
        return count >= 1 && index < count && metric < metricCount
                && body.getLong(base + OFFSET_ORIGIN) != 0 && body.getLong(base + OFFSET_DESTINATION) != 0;
    }

    public static long origin(ByteBuf body) {
        return body.getLong(body.readerIndex() + OFFSET_ORIGIN);
    }

    public static long destination(ByteBuf body) {
        return body.getLong(body.readerIndex() + OFFSET_DESTINATION);
    }

    public static int sourcePort(ByteBuf body) {
        return body.getUnsignedShort(body.readerIndex() + OFFSET_SOURCE_PORT);
    }

    public static int destinationPort(ByteBuf body) {
        return body.getUnsignedShort(body.readerIndex() + OFFSET_DESTINATION_PORT);
    }

    public static int hopLimit(ByteBuf body) {
        return body.getUnsignedByte(body.readerIndex() + OFFSET_HOP_LIMIT);
    }

    public static void setHopLimit(ByteBuf body, int hopLimit) {
        body.setByte(body.readerIndex() + OFFSET_HOP_LIMIT, hopLimit);
    }

    public static int metric(ByteBuf body) {
        return body.getUnsignedByte(body.readerIndex() + OFFSET_METRIC);
    }

    public static int fragmentIndex(ByteBuf body) {
        return body.getUnsignedShort(body.readerIndex() + OFFSET_FRAGMENT_INDEX);
    }

    public static int fragmentCount(ByteBuf body) {
        return body.getUnsignedShort(body.readerIndex() + OFFSET_FRAGMENT_COUNT);
    }

    public static int messageId(ByteBuf body) {
        return body.getInt(body.readerIndex() + OFFSET_MESSAGE_ID);
    }
}
