package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The extension decoders are total, and what they accept is exactly what the encoders write; whatever
 * a decoded extension packet holds, a router takes it without throwing.
 */
class ExtensionCodecProperties {

    @Property(tries = 2000)
    void decodeUpdateIsTotalAndCanonical(@ForAll("updateBodies") byte[] body) {
        Statistics.label("decoded").collect(checkUpdate(body));
        Statistics.label("decoded").coverage(c -> c.check(true).percentage(p -> p >= 10));
    }

    @Property(tries = 2000)
    void decodeAckIsTotalAndCanonical(@ForAll("ackBodies") byte[] body) {
        Statistics.label("decoded").collect(checkAck(body));
        Statistics.label("decoded").coverage(c -> c.check(true).percentage(p -> p >= 10));
    }

    @Property(tries = 500)
    void validUpdatesRoundTrip(@ForAll long seed) {
        ExtensionUpdate u = randomUpdate(new Random(seed));
        byte[] body = encode(u);
        assertThat(body).hasSize(ExtensionCodec.encodedSize(u));
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            assertThat(ExtensionCodec.decodeUpdate(buf)).isEqualTo(u);
        } finally {
            buf.release();
        }
    }

    /**
     * Whatever decodes, damaged or not, a router with the sender as an up neighbour takes without
     * throwing, and its own state stays within its bounds.
     */
    @Property(tries = 500)
    void routersTakeWhateverDecodes(@ForAll("updateBodies") byte[] body, @ForAll("ackBodies") byte[] ack) {
        RoutingConfig config = RoutingConfig.builder().maxExtensionBytes(40).maxExtensionsPerOrigin(2).build();
        NodeId self = NodeId.ofName("a");
        NodeId neighbour = NodeId.ofName("b");
        CapturingOutput out = new CapturingOutput();
        Router r = new Router(self, "a", config, out, 1_000, 0);
        r.neighbourUp(neighbour, new LinkCost(1_000, 0), 0);
        // The neighbour's own advertisement is held, so its records are taken, not deferred.
        r.onUpdate(neighbour, new LinkStateUpdate(List.of(new LinkStateAdvertisement(neighbour, "b", 1_000, 0,
                List.of(new LinkStateAdvertisement.Link(self, new LinkCost(1_000, 0)))))), 0);
        ByteBuf u = Unpooled.wrappedBuffer(body);
        ByteBuf a = Unpooled.wrappedBuffer(ack);
        try {
            ExtensionUpdate update = ExtensionCodec.decodeUpdate(u);
            ExtensionAck decodedAck = ExtensionCodec.decodeAck(a);
            assertThatCode(() -> {
                if (update != null) {
                    r.onExtensionUpdate(neighbour, update, 1_000_000);
                }
                if (decodedAck != null) {
                    r.onExtensionAck(neighbour, decodedAck, 2_000_000);
                }
                r.onTimer(r.nextDeadlineNanos());
            }).doesNotThrowAnyException();
            for (int kind : new int[] {1, 2, 3, 7, 0xFFFF}) {
                r.extensions(kind).values().forEach(v -> assertThat(v.length).isLessThanOrEqualTo(40));
            }
        } finally {
            u.release();
            a.release();
        }
    }

    @Provide
    Arbitrary<byte[]> updateBodies() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(200),
                Combinators.combine(Arbitraries.longs(), Arbitraries.longs())
                        .as((seed, damage) -> damage(encode(randomUpdate(new Random(seed))), new Random(damage))));
    }

    @Provide
    Arbitrary<byte[]> ackBodies() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(100),
                Combinators.combine(Arbitraries.longs(), Arbitraries.longs())
                        .as((seed, damage) -> damage(encodeAck(randomAck(new Random(seed))), new Random(damage))));
    }

    private static boolean checkUpdate(byte[] body) {
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            ExtensionUpdate u = ExtensionCodec.decodeUpdate(buf);
            assertThat(buf.readerIndex()).isZero();
            assertThat(buf.refCnt()).isEqualTo(1);
            if (u != null) {
                assertThat(encode(u)).isEqualTo(body);
            }
            return u != null;
        } finally {
            buf.release();
        }
    }

    private static boolean checkAck(byte[] body) {
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            ExtensionAck a = ExtensionCodec.decodeAck(buf);
            assertThat(buf.readerIndex()).isZero();
            assertThat(buf.refCnt()).isEqualTo(1);
            if (a != null) {
                assertThat(encodeAck(a)).isEqualTo(body);
            }
            return a != null;
        } finally {
            buf.release();
        }
    }

    /** Unchanged, a few bytes overwritten, cut short, or lengthened with random bytes. */
    private static byte[] damage(byte[] valid, Random r) {
        byte[] b = valid.clone();
        switch (r.nextInt(4)) {
            case 0 -> {
                return b;
            }
            case 1 -> {
                for (int i = 1 + r.nextInt(3); i > 0 && b.length > 0; i--) {
                    b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                }
                return b;
            }
            case 2 -> {
                return Arrays.copyOf(b, r.nextInt(b.length + 1));
            }
            default -> {
                byte[] longer = Arrays.copyOf(b, b.length + 1 + r.nextInt(20));
                for (int i = b.length; i < longer.length; i++) {
                    longer[i] = (byte) r.nextInt(256);
                }
                return longer;
            }
        }
    }

    /** Records of a few origins (the neighbour "b" among them), small and large, withdrawals included. */
    static ExtensionUpdate randomUpdate(Random r) {
        List<ExtensionRecord> records = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            NodeId origin = r.nextBoolean() ? NodeId.ofName("b") : new NodeId(r.nextLong() | 1L << 62);
            int kind = r.nextBoolean() ? 1 + r.nextInt(3) : 1 + r.nextInt(0xFFFF);
            byte[] data = null;
            if (r.nextInt(4) > 0) {
                data = new byte[r.nextInt(4) == 0 ? r.nextInt(100) : r.nextInt(8)];
                r.nextBytes(data);
            }
            long sequence = r.nextBoolean() ? 1_000 + r.nextInt(100) : r.nextLong() & Long.MAX_VALUE;
            int age = r.nextBoolean() ? r.nextInt(10_000) : r.nextInt(Integer.MAX_VALUE);
            records.add(new ExtensionRecord(origin, kind, sequence, age, data));
        }
        return new ExtensionUpdate(records);
    }

    static ExtensionAck randomAck(Random r) {
        List<ExtensionAck.Entry> entries = new ArrayList<>();
        for (int i = r.nextInt(5); i > 0; i--) {
            entries.add(new ExtensionAck.Entry(new NodeId(r.nextLong() | 1), 1 + r.nextInt(0xFFFF), r.nextLong() & Long.MAX_VALUE));
        }
        return new ExtensionAck(entries);
    }

    static byte[] encode(ExtensionUpdate u) {
        ByteBuf buf = Unpooled.buffer();
        try {
            ExtensionCodec.encodeUpdate(u, buf);
            byte[] b = new byte[buf.readableBytes()];
            buf.readBytes(b);
            return b;
        } finally {
            buf.release();
        }
    }

    static byte[] encodeAck(ExtensionAck a) {
        ByteBuf buf = Unpooled.buffer();
        try {
            ExtensionCodec.encodeAck(a, buf);
            byte[] b = new byte[buf.readableBytes()];
            buf.readBytes(b);
            return b;
        } finally {
            buf.release();
        }
    }
}
