package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;

/**
 * A node's link costs (type {@link #TYPE}), flooded to every node, in network byte order:
 *
 * <pre>
 *  0  u8  version: 1
 *  1  u8  0
 *  2  u16 links: n
 *  4  i64 origin: the node whose outgoing links these are
 * 12  u32 sequence: the origin's count of updates, newer wins (serial arithmetic)
 * 16  n x (i64 neighbour, f32 cost): the cost of the link origin -> neighbour, finite and >= 0
 * </pre>
 *
 * <p>A module packet of its own rather than a link-state record: costs are soft state that the next
 * update replaces within 50 ms or 2.5 s, so the acknowledged, aged and stored flooding of link state
 * (and the database churn of a record every 50 ms) buys nothing; a lost update is repaired by the next.
 * With three links an update is 52 bytes, the size of the thesis's 64-byte updates. Updates ride on
 * the channels' data and acknowledgements where those cross a link (see {@link ChannelAck}), several
 * back to back, and go as datagrams of their own only over links that carry nothing else.
 */
record CostUpdate(NodeId origin, int sequence, List<Link> links) {
    static final int TYPE = 81;
    static final int VERSION = 1;
    static final int HEADER = 16;
    static final int ENTRY = 12;

    record Link(NodeId neighbour, float cost) {}

    /** Links one update carries when bodies hold {@code maxBody} bytes. */
    static int capacity(int maxBody) {
        return Math.min(0xFFFF, Math.max(0, (maxBody - HEADER) / ENTRY));
    }

    int size() {
        return HEADER + ENTRY * links.size();
    }

    ByteBuf encode(ByteBufAllocator allocator) {
        return encode(allocator.buffer(size()));
    }

    /** Writes this update at the end of {@code out}. */
    ByteBuf encode(ByteBuf out) {
        out.writeByte(VERSION);
        out.writeByte(0);
        out.writeShort(links.size());
        out.writeLong(origin.value());
        out.writeInt(sequence);
        for (Link l : links) {
            out.writeLong(l.neighbour().value());
            out.writeFloat(l.cost());
        }
        return out;
    }

    /**
     * Updates back to back, as they ride on channel packets.
     *
     * @return null unless every byte belongs to a well-formed update
     */
    static List<CostUpdate> decodeAll(ByteBuf region) {
        List<CostUpdate> out = new ArrayList<>(2);
        int at = region.readerIndex();
        int end = region.writerIndex();
        while (at < end) {
            if (end - at < HEADER) {
                return null;
            }
            int length = HEADER + ENTRY * region.getUnsignedShort(at + 2);
            if (end - at < length) {
                return null;
            }
            CostUpdate u = decode(region, at, length);
            if (u == null) {
                return null;
            }
            out.add(u);
            at += length;
        }
        return out;
    }

    /** @return null unless a well-formed update: exact length, known version, ids not 0, costs finite and >= 0 */
    static CostUpdate decode(ByteBuf body) {
        return decode(body, body.readerIndex(), body.readableBytes());
    }

    private static CostUpdate decode(ByteBuf body, int at, int length) {
        if (length < HEADER || body.getUnsignedByte(at) != VERSION || body.getUnsignedByte(at + 1) != 0) {
            return null;
        }
        int n = body.getUnsignedShort(at + 2);
        long origin = body.getLong(at + 4);
        if (length != HEADER + n * ENTRY || origin == 0) {
            return null;
        }
        int sequence = body.getInt(at + 12);
        List<Link> links = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int e = at + HEADER + i * ENTRY;
            long neighbour = body.getLong(e);
            float cost = body.getFloat(e + 8);
            if (neighbour == 0 || !(cost >= 0) || Float.isInfinite(cost)) {
                return null;
            }
            links.add(new Link(new NodeId(neighbour), cost));
        }
        return new CostUpdate(new NodeId(origin), sequence, links);
    }
}
