package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The real-time group packet's header: read back as written, rewritten by relays, and decoded totally. */
class RealTimePacketProperties {
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    private static RealTimePacket packet(Random r) {
        return new RealTimePacket(METRICS[r.nextInt(METRICS.length)], 1 + r.nextInt(255), r.nextBoolean(),
                new NodeId(r.nextLong() | 1), new GroupId(r.nextLong() | 1), r.nextLong() & 0xFFFF_FFFFL,
                r.nextInt(0x10000), r.nextLong());
    }

    @Property
    void aHeaderIsReadBackAndARelayChangesOnlyHopLimitAndFlag(@ForAll long seed) {
        Random r = new Random(seed);
        RealTimePacket p = packet(r);
        ByteBuf b = p.encodeHeader(Unpooled.buffer().alloc(), 3);
        b.writeBytes(new byte[] {7, 8, 9});
        try {
            assertThat(b.readableBytes()).isEqualTo(RealTimePacket.HEADER + 3);
            assertThat(RealTimePacket.decode(b)).isEqualTo(p);
            int hops = 1 + r.nextInt(255);
            boolean recovered = r.nextBoolean();
            RealTimePacket.relayed(b, hops, recovered);
            assertThat(RealTimePacket.decode(b)).isEqualTo(new RealTimePacket(p.metric(), hops, recovered, p.source(),
                    p.group(), p.sequence(), p.port(), p.sendTimeNanos()));
            assertThat(b.getByte(RealTimePacket.HEADER + 2)).isEqualTo((byte) 9);
        } finally {
            b.release();
        }
    }

    @Property
    void decodingIsTotal(@ForAll long seed, @ForAll @IntRange(max = 44) int cut, @ForAll @IntRange(max = 8) int flips) {
        Random r = new Random(seed);
        ByteBuf b = packet(r).encodeHeader(Unpooled.buffer().alloc(), 8);
        b.writeZero(8);
        try {
            for (int i = 0; i < flips; i++) {
                b.setByte(r.nextInt(b.writerIndex()), r.nextInt(256));
            }
            b.writerIndex(Math.min(cut, b.writerIndex()));
            RealTimePacket p = RealTimePacket.decode(b);
            if (p != null) {
                assertThat(p.hopLimit()).isPositive();
                assertThat(p.source().value()).isNotZero();
                assertThat(b.readableBytes()).isGreaterThanOrEqualTo(RealTimePacket.HEADER);
            }
        } finally {
            b.release();
        }
    }
}
