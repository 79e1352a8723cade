package net.hopwise.overlay.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.HelloCodec;
import net.hopwise.overlay.link.HelloPacket;
import net.hopwise.overlay.realtime.RealTimeCodec;
import net.hopwise.overlay.reliable.ReliableLinkCodec;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionHeader;
import net.hopwise.overlay.wire.DataHeader;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * Datagrams an admitted but hostile neighbour sends: every packet type, built field by field with
 * valid framing and values at the edges (0, 1, -1, the largest and smallest, lengths off by one,
 * counts that overrun, sequence numbers at and near {@link Long#MAX_VALUE}, ages at and beyond maxAge,
 * origins that are the target itself, its real neighbours and made-up nodes), and some of them mutated
 * afterwards (bits flipped, cut short, extended, retyped).
 *
 * <p>Structure matters: random bytes die at the header check, so they test one function. Packets that
 * pass the decoders reach the protocol machines, which is where a neighbour can do harm.
 *
 * <p>Deterministic for a seed, so a failure prints the seed and replays. Takes only strings and
 * numbers in its public surface so that runs outside this module can drive it too.
 */
public final class HostilePackets {
    private final SplittableRandom random;
    private final HostileValues values;
    private final String attackerName;
    private final long attackerId;
    private final long targetId;
    private final String[] realNames;
    private long linkSequence = 1;
    private long helloSeq = 1;
    private long reliableSequence;
    private double mutationRate = 0.2;

    /**
     * @param realNames every real node of the overlay, the target included
     * @param maxAgeMillis the maxAge of the target's routing configuration
     * @param openPorts ports some node has open: fragments and sessions aimed at them reach reassembly
     */
    public HostilePackets(long seed, String attackerName, String targetName, String[] realNames, long maxAgeMillis,
            int[] openPorts) {
        this.random = new SplittableRandom(seed);
        this.values = new HostileValues(random, attackerName, targetName, realNames, maxAgeMillis, openPorts);
        this.attackerName = attackerName;
        this.attackerId = NodeId.ofName(attackerName).value();
        this.targetId = NodeId.ofName(targetName).value();
        this.realNames = realNames.clone();
    }

    /** Share of packets mutated after being built (0 turns mutation off). */
    public void mutationRate(double rate) {
        this.mutationRate = rate;
    }

    /**
     * Keeps forged sequences of real origins away from the top of the range, for runs that look for
     * other faults while a node still cannot survive its own sequence being exhausted.
     */
    public void spareRealSequences(boolean spare) {
        values.spareRealSequences(spare);
    }

    /** Notes a sequence number the target flooded for {@code origin}, so forgeries land around it. */
    public void learn(long origin, long sequence) {
        values.learn(origin, sequence);
    }

    /** Reads the advertisements of a link-state update the target sent and {@link #learn}s their sequences. */
    public void learnFrom(byte[] datagram) {
        ByteBuf d = Unpooled.wrappedBuffer(datagram);
        if (WireHeader.check(d) != null || WireHeader.type(d) != PacketType.LINK_STATE_UPDATE) {
            return;
        }
        var update = LinkStateCodec.decodeUpdate(WireHeader.body(d));
        if (update != null) {
            update.advertisements().forEach(a -> learn(a.origin().value(), a.sequence()));
        }
    }

    /** The next hostile datagram; its type code is byte {@link WireHeader#OFFSET_TYPE} (unless mutated away). */
    public byte[] next(long nowNanos) {
        PacketType type = pickType();
        ByteBuf body = Unpooled.buffer(WireHeader.MAX_BODY);
        switch (type) {
            case HELLO -> hello(body, nowNanos);
            case LINK_STATE_UPDATE -> update(body);
            case LINK_STATE_ACK -> linkStateAck(body);
            case DATA -> data(body);
            case REALTIME_DATA -> realTime(body, nowNanos);
            case REALTIME_NACK -> nack(body);
            case RELIABLE_DATA -> reliable(body);
            case LINK_ACK -> linkAck(body);
            case LINK_STATE_EXTENSION -> extensionUpdate(body);
            case LINK_STATE_EXTENSION_ACK -> extensionAck(body);
            default -> throw new IllegalStateException(type.name());
        }
        byte[] packet = frame(type, body);
        return random.nextDouble() < mutationRate ? mutate(packet) : packet;
    }

    private PacketType pickType() {
        int r = random.nextInt(100);
        // Hellos are few: each may reset the link, and a neighbour that is never up is not admitted.
        if (r < 3) {
            return PacketType.HELLO;
        }
        if (r < 30) {
            return PacketType.LINK_STATE_UPDATE;
        }
        if (r < 38) {
            return PacketType.LINK_STATE_ACK;
        }
        if (r < 55) {
            return PacketType.DATA;
        }
        if (r < 67) {
            return PacketType.REALTIME_DATA;
        }
        if (r < 74) {
            return PacketType.REALTIME_NACK;
        }
        if (r < 86) {
            return PacketType.RELIABLE_DATA;
        }
        if (r < 92) {
            return PacketType.LINK_ACK;
        }
        return r < 97 ? PacketType.LINK_STATE_EXTENSION : PacketType.LINK_STATE_EXTENSION_ACK;
    }

    // ---------------------------------------------------------------- framing

    private byte[] frame(PacketType type, ByteBuf body) {
        ByteBuf out = Unpooled.buffer(WireHeader.LENGTH + body.readableBytes());
        long receiver = values.pick(90) ? targetId : values.pick(50) ? 0 : values.anyNode();
        long sequence = values.pick(85) ? linkSequence++ : values.u32();
        int flags = values.pick(90) ? 0 : values.u16();
        if (type == PacketType.REALTIME_DATA && (flags & 0x100) != 0) {
            // Half of the real-time packets with flags carry only the marks a link sets, so that marked
            // packets reach delivery and forwarding, not just the flag check; without a draw of its
            // own, so that every other packet of a seed stays as it was.
            flags &= RealTimeCodec.FLAG_RETRANSMITTED | RealTimeCodec.FLAG_RECOVERED;
        }
        WireHeader.write(out, type, flags, attackerId, receiver, sequence);
        out.writeBytes(body);
        WireHeader.finish(out, 0);
        if (values.pick(10)) {
            int declared = body.readableBytes() + (values.pick(50) ? 1 : -1);
            out.setShort(WireHeader.OFFSET_BODY_LENGTH, values.pick(80) ? Math.max(0, declared) : values.u16());
        }
        byte[] bytes = new byte[out.readableBytes()];
        out.getBytes(0, bytes);
        return bytes;
    }

    private byte[] mutate(byte[] packet) {
        switch (random.nextInt(5)) {
            case 0 -> {
                int flips = 1 + random.nextInt(8);
                for (int i = 0; i < flips; i++) {
                    int at = random.nextInt(packet.length);
                    packet[at] ^= (byte) (1 << random.nextInt(8));
                }
                return packet;
            }
            case 1 -> {
                byte[] cut = new byte[random.nextInt(packet.length)];
                System.arraycopy(packet, 0, cut, 0, cut.length);
                return cut;
            }
            case 2 -> {
                // Extended past the declared body, sometimes past the largest datagram.
                byte[] longer = new byte[packet.length + 1 + random.nextInt(WireHeader.MAX_DATAGRAM + 100 - packet.length)];
                System.arraycopy(packet, 0, longer, 0, packet.length);
                for (int i = packet.length; i < longer.length; i++) {
                    longer[i] = (byte) random.nextInt(256);
                }
                return longer;
            }
            case 3 -> {
                // The body of one type under the header of another.
                PacketType[] types = PacketType.values();
                packet[WireHeader.OFFSET_TYPE] = (byte) types[random.nextInt(types.length)].code();
                return packet;
            }
            default -> {
                // A valid header with an unknown type or version.
                if (values.pick(50)) {
                    packet[WireHeader.OFFSET_TYPE] = (byte) values.u8();
                } else {
                    packet[WireHeader.OFFSET_VERSION] = (byte) values.u8();
                }
                return packet;
            }
        }
    }

    // ---------------------------------------------------------------- bodies

    private void hello(ByteBuf body, long nowNanos) {
        long seq = values.pick(70) ? helloSeq++ : values.u32();
        long time = values.pick(60) ? nowNanos : values.edgeLong();
        long echoSeq = values.u32();
        long lossPpm = values.pick(70) ? random.nextInt(HelloPacket.PPM + 1) : values.pick(50) ? HelloPacket.PPM + 1 : values.u32();
        String name = values.pick(85) ? attackerName : values.pick(50) ? realNames[random.nextInt(realNames.length)] : "x";
        body.writeInt((int) seq);
        body.writeLong(time);
        body.writeInt((int) echoSeq);
        body.writeLong(values.edgeLong());
        body.writeLong(values.edgeLong());
        body.writeInt((int) lossPpm);
        body.writeLong(values.pick(80) ? 1 : values.edgeLong());
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        body.writeByte(values.pick(90) ? n.length : values.offByOne(n.length));
        body.writeBytes(n);
        if (values.pick(10)) {
            body.writeBytes(new byte[random.nextInt(HelloCodec.MAX_LENGTH)]);
        }
    }

    /** Extension records of made-up and real origins, kinds, sequences and sizes (some too large). */
    private void extensionUpdate(ByteBuf body) {
        java.util.List<net.hopwise.overlay.routing.ExtensionRecord> records = new java.util.ArrayList<>();
        int count = 1 + random.nextInt(values.pick(80) ? 3 : 12);
        int size = net.hopwise.overlay.routing.ExtensionCodec.UPDATE_HEADER_BYTES;
        for (int i = 0; i < count; i++) {
            byte[] data = values.pick(10) ? null : new byte[values.pick(90) ? random.nextInt(64) : random.nextInt(1100)];
            if (data != null) {
                random.nextBytes(data);
            }
            net.hopwise.overlay.routing.ExtensionRecord r = new net.hopwise.overlay.routing.ExtensionRecord(
                    new net.hopwise.overlay.NodeId(nonZero(values.origin())), values.pick(90) ? 1 + random.nextInt(4)
                            : 1 + random.nextInt(0xFFFF), values.sequenceFor(values.origin()) & Long.MAX_VALUE, (int) values.age() & Integer.MAX_VALUE, data);
            int cell = net.hopwise.overlay.routing.ExtensionCodec.encodedSize(r);
            if (size + cell > WireHeader.MAX_BODY) {
                break;
            }
            size += cell;
            records.add(r);
        }
        if (records.isEmpty()) {
            body.writeShort(0);
            return;
        }
        net.hopwise.overlay.routing.ExtensionCodec.encodeUpdate(new net.hopwise.overlay.routing.ExtensionUpdate(records),
                body);
    }

    /** Id 0 means "unknown" and no record carries it; the codec's own tests cover a zero on the wire. */
    private static long nonZero(long id) {
        return id == 0 ? 1 : id;
    }

    private void extensionAck(ByteBuf body) {
        java.util.List<net.hopwise.overlay.routing.ExtensionAck.Entry> entries = new java.util.ArrayList<>();
        int count = 1 + random.nextInt(values.pick(80) ? 4 : 40);
        for (int i = 0; i < count; i++) {
            entries.add(new net.hopwise.overlay.routing.ExtensionAck.Entry(new net.hopwise.overlay.NodeId(nonZero(values.origin())),
                    1 + random.nextInt(8), values.sequenceFor(values.origin()) & Long.MAX_VALUE));
        }
        net.hopwise.overlay.routing.ExtensionCodec.encodeAck(new net.hopwise.overlay.routing.ExtensionAck(entries), body);
    }

    private void update(ByteBuf body) {
        int count = 1 + random.nextInt(values.pick(80) ? 3 : 20);
        int countAt = body.writerIndex();
        body.writeShort(count);
        int written = 0;
        for (int i = 0; i < count; i++) {
            long origin = values.origin();
            String name = values.nameFor(origin);
            int links = values.pick(70) ? random.nextInt(4) : random.nextInt(40);
            int size = LinkStateCodec.ADVERTISEMENT_HEADER_BYTES + name.length() + LinkStateCodec.LINK_BYTES * links;
            if (body.writerIndex() + size > WireHeader.MAX_BODY) {
                break;
            }
            body.writeLong(origin);
            body.writeLong(values.sequenceFor(origin));
            body.writeInt((int) values.age());
            body.writeByte(values.pick(97) ? name.length() : values.offByOne(name.length()));
            body.writeCharSequence(name, StandardCharsets.US_ASCII);
            body.writeByte(values.pick(97) ? links : values.offByOne(links));
            for (int k = 0; k < links; k++) {
                body.writeLong(values.pick(95) ? values.anyNode() : values.edgeLong());
                body.writeInt(values.pick(80) ? random.nextInt(200_000) : (int) values.u32());
                body.writeInt(values.pick(80) ? random.nextInt(LinkCost.MAX_LOSS_PPM + 1) : (int) values.u32());
            }
            written++;
        }
        body.setShort(countAt, values.pick(95) ? written : values.offByOne(written));
        trailing(body);
    }

    private void linkStateAck(ByteBuf body) {
        int count = random.nextInt(values.pick(80) ? 4 : 70);
        body.writeShort(values.pick(95) ? count : values.offByOne(count));
        for (int i = 0; i < count; i++) {
            long origin = values.origin();
            body.writeLong(origin);
            body.writeLong(values.sequenceFor(origin));
        }
        trailing(body);
    }

    private void data(ByteBuf body) {
        routingHeader(body, fragmentIndexAndCount(), messageId());
        payload(body, WireHeader.MAX_BODY - DataHeader.LENGTH);
    }

    private void realTime(ByteBuf body, long nowNanos) {
        body.writeInt((int) (values.pick(60) ? random.nextInt(64) : values.u32()));
        routingHeader(body, values.pick(90) ? 1 : fragmentIndexAndCount(), values.pick(60) ? random.nextInt(1000) : (int) values.u32());
        body.writeLong(values.pick(50) ? nowNanos - random.nextLong(1_000_000_000L) : values.edgeLong());
        payload(body, RealTimeCodec.MAX_PAYLOAD);
    }

    private void nack(ByteBuf body) {
        int count = values.pick(70) ? 1 + random.nextInt(16)
                : switch (random.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> RealTimeCodec.MAX_NACK_SEQUENCES;
                    case 2 -> RealTimeCodec.MAX_NACK_SEQUENCES + 1;
                    default -> values.u16();
                };
        body.writeShort(count);
        int fits = Math.min(count, (WireHeader.MAX_BODY - 2) / 4);
        int listed = values.pick(90) ? fits : Math.max(0, Math.min(fits, values.offByOne(fits)));
        for (int i = 0; i < listed; i++) {
            body.writeInt((int) (values.pick(50) ? random.nextInt(256) : values.u32()));
        }
    }

    private void reliable(ByteBuf body) {
        body.writeLong(values.pick(50) ? 1 + random.nextInt(3) : values.edgeLong());
        body.writeInt((int) (values.pick(60) ? reliableSequence++ : values.u32()));
        body.writeInt((int) (values.pick(60) ? Math.max(0, reliableSequence - random.nextInt(8)) : values.u32()));
        ack(body);
        int kind = values.pick(85) ? 1 + random.nextInt(2) : values.u8();
        routingHeader(body, 1, messageId());
        body.writeByte(kind);
        body.writeByte(values.pick(80) ? random.nextInt(4) : values.u8());
        body.writeByte(values.pick(80) ? random.nextInt(4) : values.u8());
        body.writeByte(values.pick(80) ? 1 + random.nextInt(8) : values.u8());
        body.writeLong(values.pick(50) ? 1 + random.nextInt(3) : values.edgeLong());
        body.writeInt((int) (values.pick(60) ? random.nextInt(64) : values.u32()));
        body.writeLong(values.pick(50) ? 1 + random.nextInt(3) : values.edgeLong());
        body.writeInt((int) (values.pick(60) ? random.nextInt(64) : values.u32()));
        body.writeShort(values.pick(50) ? random.nextInt(64) : values.u16());
        body.writeByte(values.pick(80) ? random.nextInt(4) : values.u8());
        body.writeByte(0);
        payload(body, WireHeader.MAX_BODY - body.writerIndex());
    }

    private void linkAck(ByteBuf body) {
        ack(body);
        trailing(body);
    }

    /** A link acknowledgement: acks for packets never sent, blocks inverted, wrapping or overrunning. */
    private void ack(ByteBuf body) {
        body.writeLong(values.pick(30) ? 0 : values.edgeLong());
        body.writeInt((int) (values.pick(50) ? random.nextInt(64) : values.u32()));
        int blocks = values.pick(85) ? random.nextInt(ReliableLinkCodec.MAX_BLOCKS + 1) : values.pick(50)
                ? ReliableLinkCodec.MAX_BLOCKS + 1 : values.u8();
        body.writeByte(blocks);
        int present = Math.min(blocks, ReliableLinkCodec.MAX_BLOCKS + 1);
        present = values.pick(90) ? present : Math.max(0, present - 1);
        for (int i = 0; i < present; i++) {
            long start = values.pick(50) ? random.nextInt(128) : values.u32();
            long end = switch (random.nextInt(4)) {
                case 0 -> start + 1 + random.nextInt(32);
                case 1 -> start;
                case 2 -> start - 1 - random.nextInt(32);
                default -> values.u32();
            };
            body.writeInt((int) start);
            body.writeInt((int) end);
        }
    }

    private void routingHeader(ByteBuf body, long indexAndCount, int messageId) {
        int index = (int) (indexAndCount >>> 16);
        int count = (int) (indexAndCount & 0xFFFF);
        int hopLimit = switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 2;
            case 3 -> 255;
            default -> 3 + random.nextInt(30);
        };
        int metrics = RoutingMetric.values().length;
        int metric = values.pick(85) ? random.nextInt(metrics) : values.pick(50) ? metrics : values.u8();
        DataHeader.write(body, values.origin(), values.destination(), values.port(), values.port(), hopLimit, metric, index, count, messageId);
    }

    /** Index in the upper 16 bits, count in the lower. */
    private long fragmentIndexAndCount() {
        return switch (random.nextInt(7)) {
            case 0, 1 -> 1;
            case 2 -> 0;
            case 3 -> (long) 0xFFFF << 16 | 0xFFFF;
            case 4 -> {
                int count = 2 + random.nextInt(5);
                yield (long) count << 16 | count;
            }
            default -> {
                int count = 2 + random.nextInt(values.pick(80) ? 6 : 0xFFFE);
                yield (long) random.nextInt(count) << 16 | count;
            }
        };
    }

    private int messageId() {
        // A few ids, so that fragments of different lengths land in one message (overlaps) and most
        // messages never complete.
        return values.pick(80) ? random.nextInt(8) : (int) values.u32();
    }

    private void payload(ByteBuf body, int room) {
        int length = switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> Math.max(0, room);
            default -> random.nextInt(Math.max(1, Math.min(room, 256)));
        };
        for (int i = 0; i < length; i++) {
            body.writeByte(random.nextInt(256));
        }
    }

    private void trailing(ByteBuf body) {
        if (values.pick(3) && body.writerIndex() < WireHeader.MAX_BODY) {
            body.writeByte(random.nextInt(256));
        }
    }
}
