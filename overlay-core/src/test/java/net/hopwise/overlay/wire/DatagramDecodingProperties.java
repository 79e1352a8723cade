package net.hopwise.overlay.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeCounters;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.node.NodeOutput;
import net.hopwise.overlay.realtime.RealTimeCodec;
import net.hopwise.overlay.testing.LeakDetection;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Decoding is total: whatever bytes arrive, the node never throws, never leaks a buffer, and counts
 * every datagram it cannot use under exactly one drop reason.
 */
class DatagramDecodingProperties {
    private static final NodeId NEIGHBOUR = NodeId.ofName("b");
    private static final NodeId SELF = NodeId.ofName("a");

    @AfterContainer
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    private static NodeStack engine() {
        NodeConfig config = NodeConfig.builder("a")
                .neighbour(new NeighbourConfig("b", new InetSocketAddress("127.0.0.1", 9)))
                .build();
        return new NodeStack(config, PooledByteBufAllocator.DEFAULT, new NodeOutput() {
            @Override
            public void transmit(InetSocketAddress to, ByteBuf datagram) {
                datagram.release();
            }

            @Override
            public boolean writable() {
                return true;
            }

            @Override
            public void event(NodeEvent event) {}
        }, 0, 0);
    }

    private static void feed(NodeStack engine, byte[] bytes) {
        ByteBuf datagram = PooledByteBufAllocator.DEFAULT.buffer(bytes.length);
        datagram.writeBytes(bytes);
        try {
            engine.onDatagram(new InetSocketAddress("127.0.0.1", 9), datagram, 1_000);
        } finally {
            datagram.release();
        }
    }

    @Property(tries = 2000)
    void arbitraryBytesAreDroppedAndCounted(@ForAll @Size(max = 1600) byte[] bytes) {
        NodeStack engine = engine();
        assertThatCode(() -> feed(engine, bytes)).doesNotThrowAnyException();
        NodeCounters c = engine.counters();
        assertThat(c.packetsReceived()).isEqualTo(1);
        assertThat(c.totalDrops()).isEqualTo(1);
        engine.close();
    }

    @Provide
    Arbitrary<Integer> knownTypes() {
        return Arbitraries.of(PacketType.values()).map(PacketType::code);
    }

    /** A sound header from the configured neighbour in front of an arbitrary body of each type. */
    @Property(tries = 3000)
    void arbitraryBodiesBehindSoundHeadersNeverThrow(@ForAll("knownTypes") int type,
            @ForAll @Size(max = 1172) byte[] body, @ForAll boolean truthfulLength) {
        NodeStack engine = engine();
        ByteBuf packet = PooledByteBufAllocator.DEFAULT.buffer();
        WireHeader.write(packet, PacketType.ofCode(type), 0, NEIGHBOUR.value(), SELF.value(), 1);
        packet.writeBytes(body);
        if (truthfulLength) {
            WireHeader.finish(packet, 0);
        } else {
            packet.setShort(WireHeader.OFFSET_BODY_LENGTH, body.length + 1);
        }
        byte[] bytes = new byte[packet.readableBytes()];
        packet.readBytes(bytes);
        packet.release();
        assertThatCode(() -> feed(engine, bytes)).doesNotThrowAnyException();
        NodeCounters c = engine.counters();
        assertThat(c.packetsReceived()).isEqualTo(1);
        if (!truthfulLength) {
            assertThat(c.drops(DropReason.TRUNCATED)).isEqualTo(1);
        }
        assertThat(c.totalDrops()).isLessThanOrEqualTo(1);
        engine.close();
    }

    /**
     * Real-time bodies that get past the first checks: a routing header with arbitrary fields (often
     * addressed to this node or routed on) or a NACK count in front of arbitrary numbers. Whatever
     * the bytes, nothing throws or leaks and at most one drop is counted.
     */
    @Property(tries = 2000)
    void realTimeBodiesNeverThrow(@ForAll boolean nack, @ForAll int linkSequence, @ForAll boolean toSelf,
            @ForAll int ports, @ForAll byte hopLimit, @ForAll byte metric, @ForAll short fragment,
            @ForAll long flowAndTime, @ForAll short nackCount, @ForAll("realTimeFlags") int flags,
            @ForAll @Size(max = 1100) byte[] tail) {
        NodeStack engine = engine();
        engine.openPort(ports & 0xFFFF | 1, m -> {});
        ByteBuf packet = PooledByteBufAllocator.DEFAULT.buffer();
        WireHeader.write(packet, nack ? PacketType.REALTIME_NACK : PacketType.REALTIME_DATA, flags,
                NEIGHBOUR.value(), SELF.value(), 1);
        if (nack) {
            packet.writeShort(nackCount);
        } else {
            packet.writeInt(linkSequence);
            packet.writeLong(NEIGHBOUR.value());
            packet.writeLong(toSelf ? SELF.value() : flowAndTime);
            packet.writeInt(ports);
            packet.writeByte(hopLimit);
            packet.writeByte(metric & 3);
            packet.writeShort(fragment & 1);
            packet.writeShort(1);
            packet.writeInt((int) flowAndTime);
            packet.writeLong(flowAndTime);
        }
        packet.writeBytes(tail, 0, Math.min(tail.length, WireHeader.MAX_DATAGRAM - packet.readableBytes()));
        WireHeader.finish(packet, 0);
        byte[] bytes = new byte[packet.readableBytes()];
        packet.readBytes(bytes);
        packet.release();
        assertThatCode(() -> feed(engine, bytes)).doesNotThrowAnyException();
        assertThatCode(() -> feed(engine, bytes)).as("the same packet again").doesNotThrowAnyException();
        NodeCounters c = engine.counters();
        assertThat(c.packetsReceived()).isEqualTo(2);
        assertThat(c.totalDrops()).isLessThanOrEqualTo(2);
        engine.close();
    }

    /** Flags of a real-time packet: the marks a link sets, often, and any other value. */
    @Provide
    Arbitrary<Integer> realTimeFlags() {
        return Arbitraries.oneOf(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 0xFFFF));
    }

    /**
     * A sound real-time packet for an open port of this node, with arbitrary flags: delivered, and
     * recovered exactly when it carries a mark, while the marks a link sets are all it carries;
     * otherwise dropped as malformed and counted once. Never an exception.
     */
    @Property(tries = 500)
    void realTimeFlagsAreMarksOrACountedDrop(@ForAll("realTimeFlags") int flags, @ForAll int flowSequence) {
        NodeStack engine = engine();
        List<Boolean> recovered = new ArrayList<>();
        engine.openPort(5004, m -> recovered.add(m.recovered()));
        ByteBuf packet = PooledByteBufAllocator.DEFAULT.buffer();
        WireHeader.write(packet, PacketType.REALTIME_DATA, flags, NEIGHBOUR.value(), SELF.value(), 1);
        RealTimeCodec.writeData(packet, NEIGHBOUR.value(), SELF.value(), 4000, 5004, 8, 0, flowSequence, 0);
        packet.writeBytes(new byte[20]);
        WireHeader.finish(packet, 0);
        byte[] bytes = new byte[packet.readableBytes()];
        packet.readBytes(bytes);
        packet.release();
        assertThatCode(() -> feed(engine, bytes)).doesNotThrowAnyException();
        NodeCounters c = engine.counters();
        if ((flags & ~(RealTimeCodec.FLAG_RETRANSMITTED | RealTimeCodec.FLAG_RECOVERED)) == 0) {
            assertThat(c.totalDrops()).isZero();
            assertThat(recovered).containsExactly(flags != 0);
            assertThat(engine.realTimeFlows(5004).get(0).recovered()).isEqualTo(flags != 0 ? 1 : 0);
        } else {
            assertThat(c.drops(DropReason.MALFORMED)).isEqualTo(1);
            assertThat(c.totalDrops()).isEqualTo(1);
            assertThat(recovered).isEmpty();
        }
        engine.close();
    }

    @Property(tries = 200)
    void headerChecksNameTheFirstProblem(@ForAll @Size(min = 28, max = 200) byte[] bytes) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.buffer();
        buf.writeBytes(bytes);
        buf.setShort(0, WireHeader.MAGIC);
        buf.setByte(2, 9);
        assertThat(WireHeader.check(buf)).isEqualTo(DropReason.UNKNOWN_VERSION);
        buf.setByte(2, WireHeader.VERSION);
        buf.setByte(3, 250);
        assertThat(WireHeader.check(buf)).isEqualTo(DropReason.UNKNOWN_TYPE);
        buf.release();
    }

    /**
     * Reliable-channel bodies with a sound link prefix (epoch, sequence numbers, acknowledgement
     * blocks) in front of an arbitrary routed packet, sometimes with a sound data header addressed to
     * this node: never an exception, at most one drop, no leak.
     */
    @Property(tries = 2000)
    void reliableBodiesNeverThrow(@ForAll long epoch, @ForAll int sequence, @ForAll int base,
            @ForAll long ackEpoch, @ForAll int cumulative, @ForAll @Size(max = 20) int[] blocks,
            @ForAll boolean soundDataHeader, @ForAll @Size(max = 1000) byte[] rest, @ForAll boolean asLinkAck) {
        NodeStack engine = engine();
        ByteBuf packet = PooledByteBufAllocator.DEFAULT.buffer();
        WireHeader.write(packet, asLinkAck ? PacketType.LINK_ACK : PacketType.RELIABLE_DATA, 0, NEIGHBOUR.value(),
                SELF.value(), 1);
        if (!asLinkAck) {
            net.hopwise.overlay.reliable.ReliableLinkCodec.writeDataPrefix(packet, epoch, sequence, base);
        }
        int n = Math.min(blocks.length / 2, 16);
        net.hopwise.overlay.reliable.ReliableLinkCodec.writeAck(packet, ackEpoch, cumulative, blocks, n);
        if (soundDataHeader) {
            DataHeader.write(packet, NEIGHBOUR.value(), SELF.value(), 7, 7, 8, 0, 0, 1, 0);
        }
        packet.writeBytes(rest, 0, Math.min(rest.length, WireHeader.MAX_DATAGRAM - packet.writerIndex()));
        WireHeader.finish(packet, 0);
        byte[] bytes = new byte[packet.readableBytes()];
        packet.readBytes(bytes);
        packet.release();
        assertThatCode(() -> feed(engine, bytes)).doesNotThrowAnyException();
        NodeCounters c = engine.counters();
        assertThat(c.packetsReceived()).isEqualTo(1);
        assertThat(c.totalDrops()).isLessThanOrEqualTo(1);
        assertThatCode(() -> engine.onTimer(2_000_000_000L)).doesNotThrowAnyException();
        engine.close();
    }
}
