package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
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

/** The decoders are total, and what they accept is exactly what the encoders write. */
class LinkStateCodecProperties {

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
        LinkStateUpdate u = randomUpdate(new Random(seed));
        byte[] body = encode(u);
        assertThat(body).hasSize(LinkStateCodec.encodedSize(u));
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            assertThat(LinkStateCodec.decodeUpdate(buf)).isEqualTo(u);
        } finally {
            buf.release();
        }
    }

    /** Arbitrary bytes, and valid bodies with a few bytes damaged, cut or added. */
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

    /** Whether the body decoded. */
    private static boolean checkUpdate(byte[] body) {
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            LinkStateUpdate u = LinkStateCodec.decodeUpdate(buf);
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

    /** Whether the body decoded. */
    private static boolean checkAck(byte[] body) {
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            LinkStateAck a = LinkStateCodec.decodeAck(buf);
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
                return java.util.Arrays.copyOf(b, r.nextInt(b.length + 1));
            }
            default -> {
                byte[] longer = java.util.Arrays.copyOf(b, b.length + 1 + r.nextInt(20));
                for (int i = b.length; i < longer.length; i++) {
                    longer[i] = (byte) r.nextInt(256);
                }
                return longer;
            }
        }
    }

    static LinkStateUpdate randomUpdate(Random r) {
        List<LinkStateAdvertisement> ads = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            String name = "node" + r.nextInt(1000) + (r.nextBoolean() ? "" : "-x." + r.nextInt(9));
            List<LinkStateAdvertisement.Link> links = new ArrayList<>();
            int count = r.nextInt(6);
            for (int k = 0; k < count; k++) {
                links.add(new LinkStateAdvertisement.Link(new NodeId(1 + k + 10L * r.nextInt(1 << 20)),
                        new LinkCost(r.nextInt(Integer.MAX_VALUE), r.nextInt(LinkCost.MAX_LOSS_PPM + 1))));
            }
            ads.add(new LinkStateAdvertisement(new NodeId(r.nextLong() | 1L << 62), name,
                    r.nextLong() & Long.MAX_VALUE, r.nextInt(Integer.MAX_VALUE), links));
        }
        return new LinkStateUpdate(ads);
    }

    static LinkStateAck randomAck(Random r) {
        List<LinkStateAck.AckEntry> entries = new ArrayList<>();
        for (int i = r.nextInt(5); i > 0; i--) {
            entries.add(new LinkStateAck.AckEntry(new NodeId(r.nextLong() | 1), r.nextLong() & Long.MAX_VALUE));
        }
        return new LinkStateAck(entries);
    }

    static byte[] encode(LinkStateUpdate u) {
        ByteBuf buf = Unpooled.buffer();
        try {
            LinkStateCodec.encodeUpdate(u, buf);
            byte[] b = new byte[buf.readableBytes()];
            buf.readBytes(b);
            return b;
        } finally {
            buf.release();
        }
    }

    static byte[] encodeAck(LinkStateAck a) {
        ByteBuf buf = Unpooled.buffer();
        try {
            LinkStateCodec.encodeAck(a, buf);
            byte[] b = new byte[buf.readableBytes()];
            buf.readBytes(b);
            return b;
        } finally {
            buf.release();
        }
    }
}
