package net.hopwise.multicast.layered;

import io.netty.buffer.ByteBuf;

/**
 * A session announcement (the thesis's SAM): what a receiver must know before it joins, and the
 * epoch that aligns every receiver's adaptation instants. Network byte order:
 *
 * <pre>
 *  0 u8  version: 1
 *  1 u8  reserved: 0
 *  2 u16 packet size M, bytes (at least the data header)
 *  4 u32 session id
 *  8 u32 epoch: the announcement's number; bumped when anything but the epoch start changes
 * 12 u32 adaptation interval (RAI), microseconds, > 0
 * 16 u16 announce every n intervals, n > 0
 * 18 u16 layer count L, 1..MAX_LAYERS
 * 20 i64 epoch start: the sender's clock (SCT scale) at an interval boundary, microseconds
 * 28 i64 object length in bytes, or 0 for an unbounded stream (never negative)
 * 36 i64 sent at: the sender's clock when this copy left, microseconds (maps the epoch onto a receiver's clock)
 * 44 u32 rate of each layer, bits per second, > 0, L times, base layer first
 * </pre>
 *
 * The encoding is canonical: {@link #decode} accepts exactly the bytes {@link #encode} writes (no
 * trailing bytes, reserved zero), so equal announcements have equal bytes.
 */
public record SessionAnnouncement(int sessionId, long epoch, int packetBytes, long intervalMicros,
        int announceEveryIntervals, long epochStartMicros, long objectLength, long sentAtMicros, LayerRates layers) {
    public static final int VERSION = 1;
    public static final int FIXED = 44;
    /** Enough for ERA's 100 layers ten times over, and an announcement well inside one datagram. */
    public static final int MAX_LAYERS = 256;

    public SessionAnnouncement {
        if (packetBytes < LayeredPacket.HEADER || packetBytes > 0xFFFF) {
            throw new IllegalArgumentException("packetBytes must be in " + LayeredPacket.HEADER + "..65535, got " + packetBytes);
        }
        LayeredPacket.requireU32("epoch", epoch);
        if (intervalMicros <= 0 || intervalMicros > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("interval must be in 1..2^32-1 us, got " + intervalMicros);
        }
        if (announceEveryIntervals < 1 || announceEveryIntervals > 0xFFFF) {
            throw new IllegalArgumentException("announceEveryIntervals must be in 1..65535, got " + announceEveryIntervals);
        }
        if (objectLength < 0) {
            throw new IllegalArgumentException("objectLength must be >= 0 (0: a stream), got " + objectLength);
        }
        if (layers == null || layers.count() > MAX_LAYERS) {
            throw new IllegalArgumentException("1.." + MAX_LAYERS + " layers required");
        }
    }

    public int encodedLength() {
        return FIXED + 4 * layers.count();
    }

    /** The same announcement, sent at another instant. */
    public SessionAnnouncement sentAt(long micros) {
        return new SessionAnnouncement(sessionId, epoch, packetBytes, intervalMicros, announceEveryIntervals,
                epochStartMicros, objectLength, micros, layers);
    }

    public long intervalNanos() {
        return intervalMicros * 1000;
    }

    public void encode(ByteBuf out) {
        out.writeByte(VERSION);
        out.writeByte(0);
        out.writeShort(packetBytes);
        out.writeInt(sessionId);
        out.writeInt((int) epoch);
        out.writeInt((int) intervalMicros);
        out.writeShort(announceEveryIntervals);
        out.writeShort(layers.count());
        out.writeLong(epochStartMicros);
        out.writeLong(objectLength);
        out.writeLong(sentAtMicros);
        for (int i = 0; i < layers.count(); i++) {
            out.writeInt((int) layers.rate(i));
        }
    }

    /** The readable bytes of {@code in}, all of them, as an announcement; null for anything else. Reads without moving. */
    public static SessionAnnouncement decode(ByteBuf in) {
        if (in == null || in.readableBytes() < FIXED) {
            return null;
        }
        int at = in.readerIndex();
        int count = in.getUnsignedShort(at + 18);
        if (in.getUnsignedByte(at) != VERSION || in.getUnsignedByte(at + 1) != 0 || count < 1 || count > MAX_LAYERS
                || in.readableBytes() != FIXED + 4 * count) {
            return null;
        }
        int packetBytes = in.getUnsignedShort(at + 2);
        long interval = in.getUnsignedInt(at + 12);
        int every = in.getUnsignedShort(at + 16);
        long objectLength = in.getLong(at + 28);
        if (packetBytes < LayeredPacket.HEADER || interval == 0 || every == 0 || objectLength < 0) {
            return null;
        }
        long[] rates = new long[count];
        for (int i = 0; i < count; i++) {
            rates[i] = in.getUnsignedInt(at + FIXED + 4 * i);
            if (rates[i] == 0) {
                return null;
            }
        }
        return new SessionAnnouncement(in.getInt(at + 4), in.getUnsignedInt(at + 8), packetBytes, interval, every,
                in.getLong(at + 20), objectLength, in.getLong(at + 36), LayerRates.of(rates));
    }
}
