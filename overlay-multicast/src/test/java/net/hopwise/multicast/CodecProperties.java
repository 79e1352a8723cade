package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The group datagram header and the membership records: what is written is read back, and decoding is total. */
class CodecProperties {
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    private static MulticastPacket packet(Random r) {
        int fragments = 1 + r.nextInt(0xFFFF);
        return new MulticastPacket(METRICS[r.nextInt(METRICS.length)], 1 + r.nextInt(255),
                new NodeId(r.nextLong() | 1), new GroupId(r.nextLong() | 1), r.nextLong() & 0xFFFF_FFFFL,
                r.nextInt(0x10000), r.nextInt(fragments), fragments);
    }

    @Property
    void aHeaderIsReadBack(@ForAll long seed) {
        MulticastPacket p = packet(new Random(seed));
        ByteBuf b = p.encodeHeader(Unpooled.buffer().alloc(), 0);
        try {
            assertThat(b.readableBytes()).isEqualTo(MulticastPacket.HEADER);
            assertThat(MulticastPacket.decode(b)).isEqualTo(p);
        } finally {
            b.release();
        }
    }

    @Property
    void headerDecodingIsTotal(@ForAll long seed, @ForAll @IntRange(max = 40) int cut,
            @ForAll @IntRange(max = 8) int flips) {
        Random r = new Random(seed);
        ByteBuf b = packet(r).encodeHeader(Unpooled.buffer().alloc(), 10);
        b.writeZero(10);
        try {
            for (int i = 0; i < flips; i++) {
                b.setByte(r.nextInt(b.writerIndex()), r.nextInt(256));
            }
            b.writerIndex(Math.min(cut, b.writerIndex()));
            MulticastPacket p = MulticastPacket.decode(b);
            if (p != null) {
                assertThat(p.fragment()).isLessThan(p.fragments());
                assertThat(p.hopLimit()).isPositive();
                assertThat(b.readableBytes()).isGreaterThanOrEqualTo(MulticastPacket.HEADER);
            }
        } finally {
            b.release();
        }
    }

    @Property
    void aRecordIsReadBackWhateverTheJoinOrder(@ForAll long seed, @ForAll @IntRange(max = 127) int count) {
        Random r = new Random(seed);
        Set<GroupId> groups = new TreeSet<>();
        while (groups.size() < count) {
            long id = r.nextLong();
            if (id != 0) {
                groups.add(new GroupId(id));
            }
        }
        List<GroupId> shuffled = new ArrayList<>(groups);
        java.util.Collections.shuffle(shuffled, r);
        byte[] record = MembershipRecords.encode(shuffled);
        assertThat(record).hasSize(1 + 8 * count).isEqualTo(MembershipRecords.encode(groups));
        assertThat(record.length).isLessThanOrEqualTo(1024);
        assertThat(MembershipRecords.decode(record)).containsExactlyElementsOf(groups);
    }

    @Property
    void recordDecodingIsTotal(@ForAll byte[] record) {
        List<GroupId> groups = MembershipRecords.decode(record);
        if (groups != null) {
            assertThat(MembershipRecords.encode(groups)).isEqualTo(record);
        }
    }

    @Property(tries = 50)
    void groupIdsAreDerivedFromNamesAsNodeIdsAre(@ForAll("names") String name) {
        assertThat(GroupId.ofName(name).value()).isEqualTo(NodeId.ofName(name).value());
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<String> names() {
        return net.jqwik.api.Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(64);
    }
}
