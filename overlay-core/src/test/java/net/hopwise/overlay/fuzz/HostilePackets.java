package net.hopwise.overlay.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
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
    /** Made-up origins come from a small pool so that the same ones return with growing sequences. */
    private static final int MADE_UP_POOL = 96;

    private final SplittableRandom random;
    private final String attackerName;
    private final long attackerId;
    private final long targetId;
    private final String[] realNames;
    private final long[] realIds;
    private final long[] madeUp = new long[MADE_UP_POOL];
    private final long maxAgeMillis;
    private final int[] openPorts;
    /** The latest sequence seen per origin in the target's floods: forged ones are placed around it. */
    private final Map<Long, Long> learned = new HashMap<>();
    private long linkSequence = 1;
    private long helloSeq = 1;
    private long reliableSequence;
    private double mutationRate = 0.2;
    private boolean spareReal;

    /**
     * @param realNames every real node of the overlay, the target included
     * @param maxAgeMillis the maxAge of the target's routing configuration
     * @param openPorts ports some node has open: fragments and sessions aimed at them reach reassembly
     */
    public HostilePackets(long seed, String attackerName, String targetName, String[] realNames, long maxAgeMillis,
            int[] openPorts) {
        this.random = new SplittableRandom(seed);
        this.attackerName = attackerName;
        this.attackerId = NodeId.ofName(attackerName).value();
        this.targetId = NodeId.ofName(targetName).value();
        this.realNames = realNames.clone();
        this.realIds = new long[realNames.length];
        for (int i = 0; i < realNames.length; i++) {
            realIds[i] = NodeId.ofName(realNames[i]).value();
        }
        for (int i = 0; i < MADE_UP_POOL; i++) {
            madeUp[i] = NodeId.ofName("phantom-" + i).value();
        }
        this.maxAgeMillis = maxAgeMillis;
        this.openPorts = openPorts.clone();
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
        this.spareReal = spare;
    }

    /** Notes a sequence number the target flooded for {@code origin}, so forgeries land around it. */
    public void learn(long origin, long sequence) {
        learned.merge(origin, sequence, Math::max);
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
        if (r < 90) {
            return PacketType.RELIABLE_DATA;
        }
        return PacketType.LINK_ACK;
    }

    // ---------------------------------------------------------------- framing

    private byte[] frame(PacketType type, ByteBuf body) {
        ByteBuf out = Unpooled.buffer(WireHeader.LENGTH + body.readableBytes());
        long receiver = pick(90) ? targetId : pick(50) ? 0 : anyNode();
        long sequence = pick(85) ? linkSequence++ : u32();
        WireHeader.write(out, type, pick(90) ? 0 : u16(), attackerId, receiver, sequence);
        out.writeBytes(body);
        WireHeader.finish(out, 0);
        if (pick(10)) {
            int declared = body.readableBytes() + (pick(50) ? 1 : -1);
            out.setShort(WireHeader.OFFSET_BODY_LENGTH, pick(80) ? Math.max(0, declared) : u16());
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
                if (pick(50)) {
                    packet[WireHeader.OFFSET_TYPE] = (byte) u8();
                } else {
                    packet[WireHeader.OFFSET_VERSION] = (byte) u8();
                }
                return packet;
            }
        }
    }

    // ---------------------------------------------------------------- bodies

    private void hello(ByteBuf body, long nowNanos) {
        long seq = pick(70) ? helloSeq++ : u32();
        long time = pick(60) ? nowNanos : edgeLong();
        long echoSeq = u32();
        long lossPpm = pick(70) ? random.nextInt(HelloPacket.PPM + 1) : pick(50) ? HelloPacket.PPM + 1 : u32();
        String name = pick(85) ? attackerName : pick(50) ? realNames[random.nextInt(realNames.length)] : "x";
        body.writeInt((int) seq);
        body.writeLong(time);
        body.writeInt((int) echoSeq);
        body.writeLong(edgeLong());
        body.writeLong(edgeLong());
        body.writeInt((int) lossPpm);
        body.writeLong(pick(80) ? 1 : edgeLong());
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        body.writeByte(pick(90) ? n.length : offByOne(n.length));
        body.writeBytes(n);
        if (pick(10)) {
            body.writeBytes(new byte[random.nextInt(HelloCodec.MAX_LENGTH)]);
        }
    }

    private void update(ByteBuf body) {
        int count = 1 + random.nextInt(pick(80) ? 3 : 20);
        int countAt = body.writerIndex();
        body.writeShort(count);
        int written = 0;
        for (int i = 0; i < count; i++) {
            long origin = origin();
            String name = nameFor(origin);
            int links = pick(70) ? random.nextInt(4) : random.nextInt(40);
            int size = LinkStateCodec.ADVERTISEMENT_HEADER_BYTES + name.length() + LinkStateCodec.LINK_BYTES * links;
            if (body.writerIndex() + size > WireHeader.MAX_BODY) {
                break;
            }
            body.writeLong(origin);
            body.writeLong(sequenceFor(origin));
            body.writeInt((int) age());
            body.writeByte(pick(97) ? name.length() : offByOne(name.length()));
            body.writeCharSequence(name, StandardCharsets.US_ASCII);
            body.writeByte(pick(97) ? links : offByOne(links));
            for (int k = 0; k < links; k++) {
                body.writeLong(pick(95) ? anyNode() : edgeLong());
                body.writeInt(pick(80) ? random.nextInt(200_000) : (int) u32());
                body.writeInt(pick(80) ? random.nextInt(LinkCost.MAX_LOSS_PPM + 1) : (int) u32());
            }
            written++;
        }
        body.setShort(countAt, pick(95) ? written : offByOne(written));
        trailing(body);
    }

    private void linkStateAck(ByteBuf body) {
        int count = random.nextInt(pick(80) ? 4 : 70);
        body.writeShort(pick(95) ? count : offByOne(count));
        for (int i = 0; i < count; i++) {
            long origin = origin();
            body.writeLong(origin);
            body.writeLong(sequenceFor(origin));
        }
        trailing(body);
    }

    private void data(ByteBuf body) {
        routingHeader(body, fragmentIndexAndCount(), messageId());
        payload(body, WireHeader.MAX_BODY - DataHeader.LENGTH);
    }

    private void realTime(ByteBuf body, long nowNanos) {
        body.writeInt((int) (pick(60) ? random.nextInt(64) : u32()));
        routingHeader(body, pick(90) ? 1 : fragmentIndexAndCount(), pick(60) ? random.nextInt(1000) : (int) u32());
        body.writeLong(pick(50) ? nowNanos - random.nextLong(1_000_000_000L) : edgeLong());
        payload(body, RealTimeCodec.MAX_PAYLOAD);
    }

    private void nack(ByteBuf body) {
        int count = pick(70) ? 1 + random.nextInt(16)
                : switch (random.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> RealTimeCodec.MAX_NACK_SEQUENCES;
                    case 2 -> RealTimeCodec.MAX_NACK_SEQUENCES + 1;
                    default -> u16();
                };
        body.writeShort(count);
        int fits = Math.min(count, (WireHeader.MAX_BODY - 2) / 4);
        int listed = pick(90) ? fits : Math.max(0, Math.min(fits, offByOne(fits)));
        for (int i = 0; i < listed; i++) {
            body.writeInt((int) (pick(50) ? random.nextInt(256) : u32()));
        }
    }

    private void reliable(ByteBuf body) {
        body.writeLong(pick(50) ? 1 + random.nextInt(3) : edgeLong());
        body.writeInt((int) (pick(60) ? reliableSequence++ : u32()));
        body.writeInt((int) (pick(60) ? Math.max(0, reliableSequence - random.nextInt(8)) : u32()));
        ack(body);
        int kind = pick(85) ? 1 + random.nextInt(2) : u8();
        routingHeader(body, 1, messageId());
        body.writeByte(kind);
        body.writeByte(pick(80) ? random.nextInt(4) : u8());
        body.writeByte(pick(80) ? random.nextInt(4) : u8());
        body.writeByte(pick(80) ? 1 + random.nextInt(8) : u8());
        body.writeLong(pick(50) ? 1 + random.nextInt(3) : edgeLong());
        body.writeInt((int) (pick(60) ? random.nextInt(64) : u32()));
        body.writeLong(pick(50) ? 1 + random.nextInt(3) : edgeLong());
        body.writeInt((int) (pick(60) ? random.nextInt(64) : u32()));
        body.writeShort(pick(50) ? random.nextInt(64) : u16());
        body.writeByte(pick(80) ? random.nextInt(4) : u8());
        body.writeByte(0);
        payload(body, WireHeader.MAX_BODY - body.writerIndex());
    }

    private void linkAck(ByteBuf body) {
        ack(body);
        trailing(body);
    }

    /** A link acknowledgement: acks for packets never sent, blocks inverted, wrapping or overrunning. */
    private void ack(ByteBuf body) {
        body.writeLong(pick(30) ? 0 : edgeLong());
        body.writeInt((int) (pick(50) ? random.nextInt(64) : u32()));
        int blocks = pick(85) ? random.nextInt(ReliableLinkCodec.MAX_BLOCKS + 1) : pick(50)
                ? ReliableLinkCodec.MAX_BLOCKS + 1 : u8();
        body.writeByte(blocks);
        int present = Math.min(blocks, ReliableLinkCodec.MAX_BLOCKS + 1);
        present = pick(90) ? present : Math.max(0, present - 1);
        for (int i = 0; i < present; i++) {
            long start = pick(50) ? random.nextInt(128) : u32();
            long end = switch (random.nextInt(4)) {
                case 0 -> start + 1 + random.nextInt(32);
                case 1 -> start;
                case 2 -> start - 1 - random.nextInt(32);
                default -> u32();
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
        int metric = pick(85) ? random.nextInt(metrics) : pick(50) ? metrics : u8();
        DataHeader.write(body, origin(), destination(), port(), port(), hopLimit, metric, index, count, messageId);
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
                int count = 2 + random.nextInt(pick(80) ? 6 : 0xFFFE);
                yield (long) random.nextInt(count) << 16 | count;
            }
        };
    }

    private int messageId() {
        // A few ids, so that fragments of different lengths land in one message (overlaps) and most
        // messages never complete.
        return pick(80) ? random.nextInt(8) : (int) u32();
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
        if (pick(3) && body.writerIndex() < WireHeader.MAX_BODY) {
            body.writeByte(random.nextInt(256));
        }
    }

    // ---------------------------------------------------------------- values

    private long origin() {
        int r = random.nextInt(100);
        if (r < 15) {
            return targetId;
        }
        if (r < 45) {
            return realIds[random.nextInt(realIds.length)];
        }
        if (r < 50) {
            return attackerId;
        }
        if (r < 95) {
            return madeUp[random.nextInt(madeUp.length)];
        }
        return pick(50) ? random.nextLong() : edgeLong();
    }

    private long destination() {
        int r = random.nextInt(100);
        if (r < 60) {
            return realIds[random.nextInt(realIds.length)];
        }
        if (r < 70) {
            return attackerId;
        }
        return r < 90 ? madeUp[random.nextInt(madeUp.length)] : edgeLong();
    }

    private long anyNode() {
        return pick(60) ? realIds[random.nextInt(realIds.length)]
                : pick(20) ? attackerId : madeUp[random.nextInt(madeUp.length)];
    }

    private String nameFor(long origin) {
        for (int i = 0; i < realIds.length; i++) {
            if (realIds[i] == origin) {
                // Mostly the real name; sometimes another real node's, so one name maps to two ids.
                return pick(85) ? realNames[i] : realNames[random.nextInt(realNames.length)];
            }
        }
        if (origin == attackerId) {
            return attackerName;
        }
        return pick(80) ? "phantom-" + Long.toHexString(origin & 0xFFFF)
                : realNames[random.nextInt(realNames.length)];
    }

    private long sequenceFor(long origin) {
        long known = learned.getOrDefault(origin, 1L);
        long forged = switch (random.nextInt(12)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> Long.MAX_VALUE;
            case 3 -> Long.MAX_VALUE - 1 - random.nextInt(4);
            case 4 -> Long.MAX_VALUE / 2 + random.nextInt(1000);
            case 5 -> known;
            case 6 -> Math.max(0, known - 1);
            case 7 -> known + 1;
            case 8 -> known + 2 + random.nextInt(100);
            case 9 -> known + (1L << (20 + random.nextInt(40)));
            case 10 -> pick(50) ? -1 : Long.MIN_VALUE;
            default -> random.nextLong(Long.MAX_VALUE);
        };
        // Sparing takes only the top quarter away: jumps of up to 2^59 remain.
        return spareReal && forged > 1L << 62 && isReal(origin) ? known + 1 : forged;
    }

    private boolean isReal(long id) {
        for (long real : realIds) {
            if (real == id) {
                return true;
            }
        }
        return false;
    }

    private long age() {
        return switch (random.nextInt(9)) {
            case 0, 1 -> 0;
            case 2 -> 1;
            case 3 -> maxAgeMillis - 1;
            case 4 -> maxAgeMillis;
            case 5 -> maxAgeMillis + 1;
            case 6 -> Integer.MAX_VALUE;
            case 7 -> 1L << 31;
            default -> random.nextLong(maxAgeMillis);
        };
    }

    private int port() {
        if (pick(30) && openPorts.length > 0) {
            return openPorts[random.nextInt(openPorts.length)];
        }
        return u16();
    }

    private long edgeLong() {
        return switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> -1;
            case 3 -> Long.MAX_VALUE;
            case 4 -> Long.MIN_VALUE;
            case 5 -> Long.MAX_VALUE - 1;
            case 6 -> Long.MIN_VALUE + 1;
            default -> random.nextLong();
        };
    }

    private long u32() {
        return switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 0xFFFF_FFFFL;
            case 3 -> 0x7FFF_FFFFL;
            case 4 -> 0x8000_0000L;
            default -> random.nextLong(1L << 32);
        };
    }

    private int u16() {
        return switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 0xFFFF;
            case 3 -> 0x8000;
            default -> random.nextInt(1 << 16);
        };
    }

    private int u8() {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> 0xFF;
            case 2 -> 0x80;
            default -> random.nextInt(256);
        };
    }

    private int offByOne(int value) {
        return Math.max(0, value + (pick(50) ? 1 : -1));
    }

    private boolean pick(int percent) {
        return random.nextInt(100) < percent;
    }
}
