package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** Announcements and data headers: read back as written, decoding total, announcements canonical. */
class LayeredCodecProperties {
    static SessionAnnouncement announcement(SplittableRandom r) {
        long[] rates = new long[1 + r.nextInt(SessionAnnouncement.MAX_LAYERS)];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = 1 + r.nextLong(0xFFFF_FFFFL);
        }
        return new SessionAnnouncement(r.nextInt(), r.nextLong(1L << 32), LayeredPacket.HEADER + r.nextInt(0x10000 - LayeredPacket.HEADER),
                1 + r.nextLong(0xFFFF_FFFFL), 1 + r.nextInt(0xFFFF), r.nextLong(), r.nextLong(Long.MAX_VALUE), r.nextLong(),
                LayerRates.of(rates));
    }

    private static byte[] bytes(SessionAnnouncement a) {
        ByteBuf b = Unpooled.buffer();
        try {
            a.encode(b);
            assertThat(b.readableBytes()).isEqualTo(a.encodedLength());
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    @Property
    void anAnnouncementIsReadBack(@ForAll long seed) {
        SessionAnnouncement a = announcement(new SplittableRandom(seed));
        ByteBuf b = Unpooled.wrappedBuffer(bytes(a));
        assertThat(SessionAnnouncement.decode(b)).isEqualTo(a);
        assertThat(b.readerIndex()).isZero();
    }

    /** Any corruption (bytes flipped, cut, appended) decodes to null or to an announcement that encodes to exactly those bytes. */
    @Property
    void decodingIsTotalAndCanonical(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        byte[] b = bytes(announcement(r));
        switch (r.nextInt(3)) {
            case 0 -> {
                for (int k = 1 + r.nextInt(4); k > 0; k--) {
                    b[r.nextInt(b.length)] ^= (byte) (1 + r.nextInt(255));
                }
            }
            case 1 -> b = java.util.Arrays.copyOf(b, r.nextInt(b.length));
            default -> b = java.util.Arrays.copyOf(b, b.length + 1 + r.nextInt(8));
        }
        SessionAnnouncement decoded = SessionAnnouncement.decode(Unpooled.wrappedBuffer(b));
        if (decoded != null) {
            assertThat(bytes(decoded)).isEqualTo(b);
        }
    }

    @Property
    void arbitraryBytesNeverThrow(@ForAll byte[] junk) {
        SessionAnnouncement.decode(Unpooled.wrappedBuffer(junk));
        LayeredPacket p = LayeredPacket.decode(Unpooled.wrappedBuffer(junk));
        if (p != null) {
            ByteBuf out = Unpooled.buffer();
            p.encode(out);
            assertThat(ByteBufUtil.getBytes(out)).isEqualTo(java.util.Arrays.copyOf(junk, LayeredPacket.HEADER));
            out.release();
        }
    }

    @Property
    void aDataHeaderIsReadBack(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        LayeredPacket p = new LayeredPacket(r.nextInt(), r.nextLong(1L << 32), r.nextInt(0x10000), r.nextLong(1L << 32),
                r.nextLong(), r.nextBoolean(), 2 + r.nextInt(LayeredPacket.MAX_BUNCH - 1), r.nextLong(1L << 32));
        ByteBuf b = Unpooled.buffer();
        p.encode(b);
        assertThat(b.readableBytes()).isEqualTo(LayeredPacket.HEADER);
        assertThat(LayeredPacket.decode(b)).isEqualTo(p);
        b.release();
    }
}
