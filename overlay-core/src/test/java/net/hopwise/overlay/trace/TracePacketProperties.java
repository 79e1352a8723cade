package net.hopwise.overlay.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The trace packets' codec: what it writes it reads back, and no bytes make it throw. */
class TracePacketProperties {
    private static final int MAX_RECORDS = TracePacket.maxRecords(1172);

    @Property
    void whatIsWrittenIsReadBack(@ForAll("packets") Typed typed) {
        ByteBuf body = typed.packet().encode(Unpooled.buffer().alloc());
        try {
            assertThat(TracePacket.decode(typed.type(), body)).isEqualTo(typed.packet());
            assertThat(body.readableBytes()).isLessThanOrEqualTo(1172);
        } finally {
            body.release();
        }
    }

    @Property
    void decodingIsTotalAndCanonical(@ForAll("packets") Typed typed, @ForAll @IntRange(max = 2000) int at,
            @ForAll byte value, @ForAll @IntRange(max = 30) int cut, @ForAll boolean mutate, @ForAll boolean otherType) {
        ByteBuf body = typed.packet().encode(Unpooled.buffer().alloc());
        try {
            if (mutate) {
                body.setByte(at % body.readableBytes(), value);
            }
            body.writerIndex(Math.max(0, body.writerIndex() - cut));
            int type = otherType ? TracePacket.PROBE + TracePacket.ANSWER - typed.type() : typed.type();
            TracePacket decoded = TracePacket.decode(type, body);
            if (decoded != null) {
                // Whatever decodes is exactly what its encoding says: no byte is ignored or reinterpreted.
                ByteBuf again = decoded.encode(Unpooled.buffer().alloc());
                try {
                    assertThat(ByteBufUtil.equals(again, body)).isTrue();
                } finally {
                    again.release();
                }
            }
        } finally {
            body.release();
        }
    }

    record Typed(int type, TracePacket packet) {}

    @Provide
    Arbitrary<Typed> packets() {
        Arbitrary<TracePacket.Hop> hops = Combinators.combine(
                Arbitraries.longs().filter(v -> v != 0),
                Arbitraries.doubles().between(0, 1e6),
                Arbitraries.longs().between(-1, Long.MAX_VALUE)).as((n, c, r) -> new TracePacket.Hop(new NodeId(n), c, r));
        return Combinators.combine(
                Arbitraries.longs().between(0, 0xFFFF_FFFFL),
                Arbitraries.integers().between(1, MAX_RECORDS),
                Arbitraries.of(RoutingMetric.class),
                Arbitraries.integers().between(0, 3),
                Arbitraries.longs().filter(v -> v != 0),
                Arbitraries.longs().filter(v -> v != 0),
                hops.list().ofMinSize(1).ofMaxSize(MAX_RECORDS),
                Arbitraries.integers().between(0, 254))
                .as((id, probe, metric, status, source, destination, records, at) -> {
                    List<TracePacket.Hop> r = records.subList(0, Math.min(records.size(), probe));
                    TracePacket p = status == TracePacket.PROBING
                            ? new TracePacket(id, probe, metric, status, 0, new NodeId(source), new NodeId(destination), r)
                            : new TracePacket(id, probe, metric, status, at % r.size(), new NodeId(source),
                                    new NodeId(destination), r);
                    return new Typed(status == TracePacket.PROBING ? TracePacket.PROBE : TracePacket.ANSWER, p);
                });
    }
}
