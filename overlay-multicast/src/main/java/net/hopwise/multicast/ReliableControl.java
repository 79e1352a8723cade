package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The control packets of reliable streams (type {@link #TYPE}), sent on their own between
 * neighbours (a lost one is made good by the next or by a retry), in network byte order:
 *
 * <pre>
 *  0  u8  version: 1
 *  1  u8  kind: 1 NACK (child to parent), 2 ACK (child to parent), 3 HEARTBEAT (parent to children),
 *         4 SQUELCH (parent to children)
 *  2  u8  metric ordinal
 *  3  u8  0
 *  4  u16 port
 *  6  i64 source
 * 14  i64 group
 * 22  u32 epoch
 * 26  NACK: u16 n, then n ranges of i64 first sequence and u16 count (at least 1)
 *     ACK: i64 watermark, every sequence below it arrived in the sender's subtree
 *     HEARTBEAT: i64 next (the first sequence not sent yet), i64 horizon, i64 oldest kept by the source
 *     SQUELCH: i64 oldest sequence the source still keeps
 * </pre>
 */
record ReliableControl(int kind, StreamKey key, int epoch, long a, long b, long c, List<long[]> ranges) {
    static final int TYPE = 90;
    static final int NACK = 1;
    static final int ACK = 2;
    static final int HEARTBEAT = 3;
    static final int SQUELCH = 4;
    static final int FIXED = 26;
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    static ReliableControl nack(StreamKey key, int epoch, List<long[]> ranges) {
        return new ReliableControl(NACK, key, epoch, 0, 0, 0, ranges);
    }

    static ReliableControl of(int kind, StreamKey key, int epoch, long a, long b, long c) {
        return new ReliableControl(kind, key, epoch, a, b, c, List.of());
    }

    /** Ranges a NACK of a module body of {@code maxBody} bytes holds. */
    static int nackCapacity(int maxBody) {
        return Math.min(0xFFFF, (maxBody - FIXED - 2) / 10);
    }

    ByteBuf encode(ByteBufAllocator allocator) {
        ByteBuf out = allocator.buffer(FIXED + 24 + 10 * ranges.size());
        out.writeByte(1);
        out.writeByte(kind);
        out.writeByte(key.metric().ordinal());
        out.writeByte(0);
        out.writeShort(key.port());
        out.writeLong(key.source().value());
        out.writeLong(key.group().value());
        out.writeInt(epoch);
        switch (kind) {
            case NACK -> {
                out.writeShort(ranges.size());
                for (long[] r : ranges) {
                    out.writeLong(r[0]);
                    out.writeShort((int) r[1]);
                }
            }
            case HEARTBEAT -> {
                out.writeLong(a);
                out.writeLong(b);
                out.writeLong(c);
            }
            default -> out.writeLong(a);
        }
        return out;
    }

    /** @return null unless well formed, with exactly the length its kind gives */
    static ReliableControl decode(ByteBuf body) {
        int at = body.readerIndex();
        int length = body.readableBytes();
        if (length < FIXED + 2 || body.getUnsignedByte(at) != 1 || body.getUnsignedByte(at + 3) != 0) {
            return null;
        }
        int kind = body.getUnsignedByte(at + 1);
        int metric = body.getUnsignedByte(at + 2);
        long source = body.getLong(at + 6);
        long group = body.getLong(at + 14);
        if (metric >= METRICS.length || source == 0 || group == 0) {
            return null;
        }
        StreamKey key = new StreamKey(new NodeId(source), new GroupId(group), body.getUnsignedShort(at + 4),
                METRICS[metric]);
        int epoch = body.getInt(at + 22);
        int p = at + FIXED;
        switch (kind) {
            case NACK -> {
                int n = body.getUnsignedShort(p);
                if (length != FIXED + 2 + 10 * n) {
                    return null;
                }
                List<long[]> ranges = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    long first = body.getLong(p + 2 + 10 * i);
                    int count = body.getUnsignedShort(p + 10 + 10 * i);
                    if (first < 0 || count == 0) {
                        return null;
                    }
                    ranges.add(new long[] {first, count});
                }
                return new ReliableControl(NACK, key, epoch, 0, 0, 0, ranges);
            }
            case HEARTBEAT -> {
                if (length != FIXED + 24) {
                    return null;
                }
                long next = body.getLong(p);
                long horizon = body.getLong(p + 8);
                long oldest = body.getLong(p + 16);
                if (next < 0 || horizon < 0 || oldest < 0 || horizon > next || oldest > next) {
                    return null;
                }
                return of(HEARTBEAT, key, epoch, next, horizon, oldest);
            }
            case ACK, SQUELCH -> {
                long value = body.getLong(p);
                return length != FIXED + 8 || value < 0 ? null : of(kind, key, epoch, value, 0, 0);
            }
            default -> {
                return null;
            }
        }
    }
}
