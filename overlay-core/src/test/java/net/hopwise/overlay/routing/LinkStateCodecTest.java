package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;

class LinkStateCodecTest {
    static final NodeId A = NodeId.ofName("alpha");
    static final NodeId B = NodeId.ofName("bravo");
    static final NodeId C = NodeId.ofName("charlie");

    static LinkStateAdvertisement advertisement(NodeId origin, String name, long sequence, int links) {
        List<LinkStateAdvertisement.Link> list = new ArrayList<>();
        for (int i = 0; i < links; i++) {
            list.add(new LinkStateAdvertisement.Link(new NodeId(1000 + i), new LinkCost(i * 1000, i * 10)));
        }
        return new LinkStateAdvertisement(origin, name, sequence, 1234, list);
    }

    @Test
    void updateRoundTripsInTheDocumentedLayout() {
        LinkStateAdvertisement a = new LinkStateAdvertisement(A, "alpha", 7, 42, List.of(
                new LinkStateAdvertisement.Link(B, new LinkCost(1500, 20_000)),
                new LinkStateAdvertisement.Link(C, new LinkCost(0, 1_000_000))));
        LinkStateAdvertisement empty = new LinkStateAdvertisement(B, "bravo", Long.MAX_VALUE, Integer.MAX_VALUE, List.of());
        LinkStateUpdate u = new LinkStateUpdate(List.of(a, empty));
        ByteBuf buf = Unpooled.buffer();
        try {
            buf.writeByte(0x99); // something before the body: encode appends at the writer index
            buf.skipBytes(1);
            LinkStateCodec.encodeUpdate(u, buf);
            assertThat(buf.readableBytes()).isEqualTo(LinkStateCodec.encodedSize(u))
                    .isEqualTo(2 + (22 + 5 + 32) + (22 + 5));
            assertThat(buf.getUnsignedShort(1)).isEqualTo(2);
            assertThat(buf.getLong(3)).isEqualTo(A.value());
            assertThat(buf.getLong(11)).isEqualTo(7);
            assertThat(buf.getInt(19)).isEqualTo(42);
            assertThat((int) buf.getUnsignedByte(23)).isEqualTo(5);
            assertThat((int) buf.getUnsignedByte(29)).isEqualTo(2);
            assertThat(buf.getLong(30)).isEqualTo(B.value());
            assertThat(buf.getInt(38)).isEqualTo(1500);
            assertThat(buf.getInt(42)).isEqualTo(20_000);
            int reader = buf.readerIndex();
            int writer = buf.writerIndex();
            assertThat(LinkStateCodec.decodeUpdate(buf)).isEqualTo(u);
            assertThat(buf.readerIndex()).isEqualTo(reader);
            assertThat(buf.writerIndex()).isEqualTo(writer);
            assertThat(buf.refCnt()).isEqualTo(1);
        } finally {
            buf.release();
        }
    }

    @Test
    void ackRoundTrips() {
        LinkStateAck ack = new LinkStateAck(List.of(new LinkStateAck.AckEntry(A, 1), new LinkStateAck.AckEntry(B, Long.MAX_VALUE)));
        ByteBuf buf = Unpooled.buffer();
        try {
            LinkStateCodec.encodeAck(ack, buf);
            assertThat(buf.readableBytes()).isEqualTo(2 + 2 * 16).isEqualTo(LinkStateCodec.encodedSize(ack));
            assertThat(LinkStateCodec.decodeAck(buf)).isEqualTo(ack);
        } finally {
            buf.release();
        }
    }

    @Test
    void aFullAdvertisementFitsOneDatagram() {
        RoutingConfig config = RoutingConfig.defaults();
        String longest = "n".repeat(NodeId.MAX_NAME_LENGTH);
        LinkStateAdvertisement a = advertisement(NodeId.ofName(longest), longest, 1, config.maxLinksPerAdvertisement());
        assertThat(LinkStateCodec.UPDATE_HEADER_BYTES + LinkStateCodec.encodedSize(a)).isLessThanOrEqualTo(WireHeader.MAX_BODY);
        LinkStateAdvertisement bigger = advertisement(NodeId.ofName(longest), longest, 1, config.maxLinksPerAdvertisement() + 1);
        assertThat(LinkStateCodec.UPDATE_HEADER_BYTES + LinkStateCodec.encodedSize(bigger)).isGreaterThan(WireHeader.MAX_BODY);
    }

    @Test
    void malformedBodiesDecodeToNull() {
        LinkStateUpdate valid = new LinkStateUpdate(List.of(advertisement(A, "alpha", 3, 2)));
        // Offsets in the single advertisement: origin 2, sequence 10, age 18, name length 22, name 23..27,
        // link count 28, first link 29 (neighbour), 37 (latency), 41 (loss), second link 45.
        assertMalformedUpdate(valid, b -> b.writerIndex(b.writerIndex() - 1));
        assertMalformedUpdate(valid, b -> b.writeByte(0));
        assertMalformedUpdate(valid, b -> b.setShort(0, 2));
        assertMalformedUpdate(valid, b -> b.setShort(0, 0));
        assertMalformedUpdate(valid, b -> b.setLong(2, 0));
        assertMalformedUpdate(valid, b -> b.setLong(10, -1));
        assertMalformedUpdate(valid, b -> b.setInt(18, -1));
        assertMalformedUpdate(valid, b -> b.setByte(22, 0));
        assertMalformedUpdate(valid, b -> b.setByte(23, '-'));
        assertMalformedUpdate(valid, b -> b.setByte(24, ' '));
        assertMalformedUpdate(valid, b -> b.setByte(24, 0xC3));
        assertMalformedUpdate(valid, b -> b.setByte(28, 3));
        assertMalformedUpdate(valid, b -> b.setLong(29, 0));
        assertMalformedUpdate(valid, b -> b.setLong(29, A.value()));
        assertMalformedUpdate(valid, b -> b.setLong(45, b.getLong(29)));
        assertMalformedUpdate(valid, b -> b.setInt(37, -1));
        assertMalformedUpdate(valid, b -> b.setInt(41, 1_000_001));

        ByteBuf empty = Unpooled.buffer();
        try {
            assertThat(LinkStateCodec.decodeUpdate(empty)).isNull();
            assertThat(LinkStateCodec.decodeAck(empty)).isNull();
            empty.writeShort(1);
            empty.writeLong(A.value());
            empty.writeLong(-5);
            assertThat(LinkStateCodec.decodeAck(empty)).isNull();
            empty.setLong(10, 5);
            assertThat(LinkStateCodec.decodeAck(empty)).isNotNull();
            empty.setLong(2, 0);
            assertThat(LinkStateCodec.decodeAck(empty)).isNull();
        } finally {
            empty.release();
        }
    }

    private static void assertMalformedUpdate(LinkStateUpdate valid, Consumer<ByteBuf> damage) {
        ByteBuf buf = Unpooled.buffer();
        try {
            LinkStateCodec.encodeUpdate(valid, buf);
            assertThat(LinkStateCodec.decodeUpdate(buf)).isEqualTo(valid);
            damage.accept(buf);
            assertThat(LinkStateCodec.decodeUpdate(buf)).isNull();
        } finally {
            buf.release();
        }
    }
}
