package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DatagramStage;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;

/**
 * A stage between the socket and the frame stage, as link security will be: it wraps every datagram
 * in a header and a trailer of its own, and the node's payload limits shrink by what it adds.
 */
public class DatagramStageTest {
    /** Bytes the test stage puts in front of every datagram, and behind it. */
    static final int HEAD = 12;
    static final int TAIL = 16;
    static final int MARK = 0x5EA1ED00;

    /** Wraps each datagram: a mark and 8 bytes in front, 16 behind; refuses what is not wrapped. */
    public static final class Wrapping implements OverlayModule {
        public final List<Integer> sealedSizes = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return "wrapping";
        }

        @Override
        public void install(ModuleContext ctx) {
            DropCounter unwrapped = ctx.dropReason("not_wrapped");
            ctx.addDatagramStage("seal", new DatagramStage() {
                @Override
                public int overhead() {
                    return HEAD + TAIL;
                }

                @Override
                public ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
                    if (datagram.readableBytes() < HEAD + TAIL || datagram.getInt(datagram.readerIndex()) != MARK) {
                        unwrapped.increment();
                        return null;
                    }
                    return datagram.retainedSlice(datagram.readerIndex() + HEAD, datagram.readableBytes() - HEAD - TAIL);
                }

                @Override
                public ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos) {
                    ByteBuf sealed = ctx.allocator().ioBuffer(datagram.readableBytes() + HEAD + TAIL);
                    sealed.writeInt(MARK).writeLong(nowNanos);
                    sealed.writeBytes(datagram);
                    sealed.writeZero(TAIL);
                    datagram.release();
                    sealedSizes.add(sealed.readableBytes());
                    return sealed;
                }
            });
        }
    }

    @Test
    void everyDatagramIsSealedAndOpenedAndTheNodesLimitsLeaveRoomForIt() {
        Wrapping wa = new Wrapping();
        Wrapping wb = new Wrapping();
        List<Integer> delivered = new ArrayList<>();
        try (TwoNodeWire w = new TwoNodeWire(b -> b.module(b.build().name().equals("a") ? wa : wb))) {
            w.b.openPort(9, m -> delivered.add(m.payload().readableBytes()));
            w.runFor(3_000 * TwoNodeWire.MS);
            assertThat(w.a.hasRoute(NodeId.ofName("b"), RoutingMetric.HOPS)).isTrue();
            assertThat(w.a.maxFragmentPayload()).isEqualTo(WireHeader.MAX_DATAGRAM - HEAD - TAIL
                    - NodeStack.PREPARED_HEADROOM);
            assertThat(w.a.sessionPayloadBytes()).isLessThanOrEqualTo(WireHeader.MAX_DATAGRAM - HEAD - TAIL);

            byte[] big = new byte[5_000];
            assertThat(w.a.send(1, NodeId.ofName("b"), 9, Unpooled.wrappedBuffer(big), RoutingMetric.HOPS, w.now()))
                    .isEqualTo(SendResult.ACCEPTED);
            w.runFor(10 * TwoNodeWire.MS);
            assertThat(delivered).containsExactly(5_000);
            // Everything on the wire, hellos, link state and fragments alike, was sealed and still fits.
            assertThat(wa.sealedSizes).isNotEmpty().allSatisfy(size ->
                    assertThat(size).isLessThanOrEqualTo(WireHeader.MAX_DATAGRAM));
            assertThat(wa.sealedSizes).contains(WireHeader.MAX_DATAGRAM);
            assertThat(w.sentByA.get(TwoNodeWire.B)).allSatisfy(d -> assertThat(d.getInt(0)).isEqualTo(MARK));
            assertThat(w.b.counters().drops(DropReason.BAD_MAGIC)).isZero();
        }
    }

    @Test
    void aDatagramTheStageRefusesNeverReachesTheFrameStage() {
        Wrapping wb = new Wrapping();
        try (TwoNodeWire w = new TwoNodeWire(b -> {
            if (b.build().name().equals("b")) {
                b.module(wb);
            }
        })) {
            w.runFor(3_000 * TwoNodeWire.MS);
            NodeCounters c = w.b.counters();
            assertThat(c.moduleDrops()).singleElement().satisfies(d -> assertThat(d.count()).isPositive());
            assertThat(c.packetsReceived()).isZero();
            assertThat(w.b.hasRoute(NodeId.ofName("a"), RoutingMetric.HOPS)).isFalse();
        }
    }

    /** A stage above the sealing one that sends datagrams of its own and counts what passes it. */
    static final class Talker implements OverlayModule, DatagramStage {
        ModuleContext ctx;
        int outboundSeen;

        @Override
        public String name() {
            return "talker";
        }

        @Override
        public void install(ModuleContext ctx) {
            this.ctx = ctx;
            ctx.addDatagramStage("talk", this);
        }

        @Override
        public int overhead() {
            return 0;
        }

        @Override
        public ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
            return datagram;
        }

        @Override
        public ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos) {
            outboundSeen++;
            return datagram;
        }
    }

    @Test
    void aStagesOwnDatagramPassesOnlyTheStagesNearerTheSocketAndMayGoToAnyAddress() {
        Wrapping seal = new Wrapping();
        Talker talker = new Talker();
        InetSocketAddress elsewhere = new InetSocketAddress("127.0.0.1", 10_099);
        try (TwoNodeWire w = new TwoNodeWire(b -> {
            if (b.build().name().equals("a")) {
                b.module(seal).module(talker);
            }
        })) {
            w.runFor(10 * TwoNodeWire.MS);
            int seen = talker.outboundSeen;
            long sent = w.a.counters().packetsSent();
            talker.ctx.sendDatagram(talker, elsewhere, Unpooled.copiedBuffer(new byte[] {'o', 'w', 'n'}));

            assertThat(talker.outboundSeen).as("its own stage does not see it again").isEqualTo(seen);
            assertThat(w.sentByA.get(elsewhere)).singleElement().satisfies(d -> {
                assertThat(d.getInt(0)).as("sealed by the stage nearer the socket").isEqualTo(MARK);
                assertThat(d.readableBytes()).isEqualTo(HEAD + 3 + TAIL);
                assertThat(d.getByte(HEAD)).isEqualTo((byte) 'o');
            });
            assertThat(w.a.counters().packetsSent()).isEqualTo(sent + 1);

            ByteBuf notMine = Unpooled.buffer(1).writeByte(1);
            org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                    talker.ctx.sendDatagram(new Talker(), elsewhere, notMine))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("only of a datagram stage it added");
            assertThat(notMine.refCnt()).as("refused, and released").isZero();
        }
    }

    /** Vouches for every datagram as its neighbour's, as a stage that authenticates them would. */
    static final class Vouching implements OverlayModule, DatagramStage {
        ModuleContext ctx;

        @Override
        public String name() {
            return "vouching";
        }

        @Override
        public void install(ModuleContext ctx) {
            this.ctx = ctx;
            ctx.addDatagramStage("vouch", this);
        }

        @Override
        public int overhead() {
            return 0;
        }

        @Override
        public ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
            LinkView b = ctx.links().get(0);
            if (!from.equals(b.address())) {
                ctx.moveNeighbour(b, from);
            }
            return datagram;
        }

        @Override
        public ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos) {
            return datagram;
        }
    }

    /**
     * Replays one of b's old hellos from another address: a hello that proves nothing fresh, which the
     * node's own rule refuses to move a neighbour on.
     */
    private static void replayOldHelloFrom(TwoNodeWire w, InetSocketAddress elsewhere) {
        ByteBuf hello = w.sentByB.stream()
                .filter(d -> WireHeader.typeCode(d) == net.hopwise.overlay.wire.PacketType.HELLO.code())
                .findFirst().orElseThrow();
        w.bSilent = true;
        w.inject(elsewhere, TwoNodeWire.A, hello.copy());
        w.runFor(5 * TwoNodeWire.MS);
    }

    @Test
    void aNeighbourMovesOnTheFirstDatagramAStageVouchesFor() {
        InetSocketAddress moved = new InetSocketAddress("127.0.0.1", 10_077);
        try (TwoNodeWire w = new TwoNodeWire(b -> {
            if (b.build().name().equals("a")) {
                b.module(new Vouching());
            }
        })) {
            w.runFor(3_000 * TwoNodeWire.MS);
            replayOldHelloFrom(w, moved);
            assertThat(w.events(net.hopwise.overlay.NodeEvent.Kind.ADDRESS_CHANGED)).singleElement()
                    .satisfies(e -> assertThat(e.detail()).endsWith(String.valueOf(moved)));
            assertThat(w.a.counters().drops(DropReason.UNVERIFIED_HELLO)).isZero();
        }
    }

    @Test
    void withoutAVouchingStageAStaleHelloMovesNoNeighbour() {
        InetSocketAddress moved = new InetSocketAddress("127.0.0.1", 10_077);
        try (TwoNodeWire w = new TwoNodeWire()) {
            w.runFor(3_000 * TwoNodeWire.MS);
            replayOldHelloFrom(w, moved);
            assertThat(w.events(net.hopwise.overlay.NodeEvent.Kind.ADDRESS_CHANGED)).isEmpty();
            assertThat(w.a.counters().drops(DropReason.UNVERIFIED_HELLO)).isEqualTo(1);
        }
    }
}
