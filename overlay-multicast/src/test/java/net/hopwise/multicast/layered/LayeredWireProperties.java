package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.BitSet;
import net.hopwise.multicast.GroupId;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The layered service's packets: what is written reads back, and any bytes read as a packet or as nothing. */
class LayeredWireProperties {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    @Property
    void dataReadsBackWithItsPayloadAndAtItsExactSize(@ForAll @IntRange(min = 0, max = 0xFFFF) int layer,
            @ForAll @IntRange(min = 0, max = 200) int payloadBytes, @ForAll @IntRange(min = 1, max = 255) int hops,
            @ForAll long sequenceSeed) {
        LayeredWire.Envelope e = new LayeredWire.Envelope(RoutingMetric.LATENCY, hops, NodeId.ofName("s"),
                GroupId.ofName("g"), 5004);
        LayeredPacket p = new LayeredPacket(9, 1, layer, sequenceSeed & 0xFFFF_FFFFL, 123, true, 2, 1);
        byte[] payload = new byte[payloadBytes];
        java.util.Arrays.fill(payload, (byte) 7);
        ByteBuf body = LayeredWire.data(ALLOC, e, p, payload, 484);
        try {
            assertThat(body.readableBytes()).isEqualTo(484);
            assertThat(LayeredWire.envelope(body)).isEqualTo(e);
            assertThat(LayeredWire.packet(body)).isEqualTo(p);
            assertThat(LayeredWire.payload(body)).isEqualTo(payload);
        } finally {
            body.release();
        }
    }

    @Property
    void aSendTimeIsReadOntoThisNodesClockInThePacketAndInTheBody(
            @ForAll @net.jqwik.api.constraints.LongRange(min = -1_000_000_000_000_000L, max = 1_000_000_000_000_000L)
            long clockOffsetNanos, @ForAll @net.jqwik.api.constraints.LongRange(min = 0, max = 1L << 50) long sct) {
        LayeredWire.Envelope e = new LayeredWire.Envelope(RoutingMetric.LATENCY, 3, NodeId.ofName("s"),
                GroupId.ofName("g"), 5004);
        LayeredPacket p = new LayeredPacket(9, 1, 2, 77, sct, false, 3, 1);
        ByteBuf body = LayeredWire.data(ALLOC, e, p, new byte[] {1, 2, 3}, 100);
        try {
            LayeredPacket moved = LayeredWire.onThisClock(body, p, clockOffsetNanos);
            long expected = sct - Math.floorDiv(clockOffsetNanos, 1000);
            assertThat(moved.sendTimeMicros()).isEqualTo(expected);
            assertThat(LayeredWire.packet(body)).isEqualTo(moved);
            assertThat(LayeredWire.envelope(body)).isEqualTo(e);
            assertThat(LayeredWire.payload(body)).containsExactly(1, 2, 3);
            assertThat(moved).isEqualTo(new LayeredPacket(9, 1, 2, 77, expected, false, 3, 1));
        } finally {
            body.release();
        }
    }

    @Property
    void aSubscriptionReadsBackAndBitsPastItsLayersAreRefused(@ForAll @IntRange(min = 1, max = 256) int layers,
            @ForAll long bits) {
        BitSet held = new BitSet();
        for (int k = 0; k < Math.min(64, layers); k++) {
            held.set(k, ((bits >>> k) & 1) != 0);
        }
        LayeredWire.Envelope e = new LayeredWire.Envelope(RoutingMetric.HOPS, 1, NodeId.ofName("s"),
                GroupId.ofName("g"), 1);
        ByteBuf body = LayeredWire.subscribe(ALLOC, e, 42, layers, held);
        try {
            assertThat(LayeredWire.subscription(body)).isEqualTo(new LayeredWire.Subscription(42, layers, held));
            if (layers % 8 != 0) {
                // The last byte's bits past L are set: a malformed subscription.
                int last = body.writerIndex() - 1;
                body.setByte(last, body.getByte(last) | 0x80);
                assertThat(LayeredWire.subscription(body)).isNull();
            }
        } finally {
            body.release();
        }
    }

    @Property
    void anyBytesAfterAnEnvelopeReadAsAPacketOrAsNothingWithoutThrowing(@ForAll @Size(max = 120) byte[] tail,
            @ForAll boolean withEnvelope) {
        ByteBuf in = Unpooled.buffer();
        if (withEnvelope) {
            new LayeredWire.Envelope(RoutingMetric.HOPS, 3, NodeId.ofName("s"), GroupId.ofName("g"), 1).encode(in);
        }
        in.writeBytes(tail);
        int before = in.readableBytes();
        LayeredWire.Envelope e = LayeredWire.envelope(in);
        assertThat(e != null).isEqualTo(withEnvelope || LayeredWire.envelope(Unpooled.wrappedBuffer(tail)) != null);
        LayeredPacket p = LayeredWire.packet(in);
        if (p != null) {
            assertThat(LayeredWire.payload(in)).hasSizeLessThanOrEqualTo(before - LayeredWire.DATA_HEADER);
        }
        LayeredWire.announcement(in);
        LayeredWire.subscription(in);
        assertThat(in.readableBytes()).as("decoding reads without moving").isEqualTo(before);
    }
}
