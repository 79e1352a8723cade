package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Cost updates and channel acknowledgements: what is written is read back, and decoding is total. */
class FlowCodecProperties {
    private static CostUpdate update(Random r) {
        List<CostUpdate.Link> links = new ArrayList<>();
        for (int i = r.nextInt(6); i > 0; i--) {
            links.add(new CostUpdate.Link(new NodeId(r.nextLong() | 1), r.nextFloat() * 50));
        }
        return new CostUpdate(new NodeId(r.nextLong() | 1), r.nextInt(), links);
    }

    private static ChannelAck ack(Random r) {
        int[] seqs = new int[r.nextInt(8)];
        for (int i = 0; i < seqs.length; i++) {
            seqs[i] = r.nextInt();
        }
        return new ChannelAck(r.nextInt(), r.nextInt(), seqs);
    }

    @Property
    void aCostUpdateIsReadBack(@ForAll long seed) {
        CostUpdate u = update(new Random(seed));
        ByteBuf b = u.encode(Unpooled.buffer().alloc());
        try {
            assertThat(b.readableBytes()).isEqualTo(CostUpdate.HEADER + CostUpdate.ENTRY * u.links().size());
            assertThat(CostUpdate.decode(b)).isEqualTo(u);
        } finally {
            b.release();
        }
    }

    @Property
    void anAckIsReadBack(@ForAll long seed) {
        ChannelAck a = ack(new Random(seed));
        ByteBuf b = a.encode(Unpooled.buffer().alloc());
        try {
            ChannelAck back = ChannelAck.decode(b);
            assertThat(back.epoch()).isEqualTo(a.epoch());
            assertThat(back.cumulative()).isEqualTo(a.cumulative());
            assertThat(back.sequences()).containsExactly(a.sequences());
        } finally {
            b.release();
        }
    }

    /** Updates riding on an acknowledgement: the acknowledgement reads as before, and the updates come back whole. */
    @Property
    void updatesRidingOnAnAckAreReadBack(@ForAll long seed) {
        Random r = new Random(seed);
        ChannelAck a = ack(r);
        List<CostUpdate> updates = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            updates.add(update(r));
        }
        ByteBuf carried = Unpooled.buffer();
        carried.writeShort(0);
        updates.forEach(u -> u.encode(carried));
        carried.setShort(0, carried.readableBytes() - ChannelAck.CARRIED_HEADER);
        ByteBuf b = a.encode(Unpooled.buffer().alloc(), carried);
        try {
            ChannelAck back = ChannelAck.decode(b);
            assertThat(back.epoch()).isEqualTo(a.epoch());
            assertThat(back.cumulative()).isEqualTo(a.cumulative());
            assertThat(back.sequences()).containsExactly(a.sequences());
            assertThat(CostUpdate.decodeAll(ChannelAck.carried(b))).isEqualTo(updates);
        } finally {
            b.release();
        }
    }

    @Property
    void decodingIsTotal(@ForAll long seed, @ForAll @IntRange(max = 100) int cut, @ForAll @IntRange(max = 8) int flips) {
        Random r = new Random(seed);
        ByteBuf riding = Unpooled.buffer();
        riding.writeShort(0);
        update(r).encode(riding);
        riding.setShort(0, riding.readableBytes() - ChannelAck.CARRIED_HEADER);
        for (ByteBuf b : List.of(update(r).encode(Unpooled.buffer().alloc()), ack(r).encode(Unpooled.buffer().alloc()),
                ack(r).encode(Unpooled.buffer().alloc(), riding))) {
            try {
                for (int i = 0; i < flips && b.writerIndex() > 0; i++) {
                    b.setByte(r.nextInt(b.writerIndex()), r.nextInt(256));
                }
                b.writerIndex(Math.min(cut, b.writerIndex()));
                CostUpdate u = CostUpdate.decode(b);
                if (u != null) {
                    assertThat(u.links()).allSatisfy(l -> assertThat(l.cost()).isFinite().isNotNegative());
                }
                if (ChannelAck.decode(b) != null) {
                    CostUpdate.decodeAll(ChannelAck.carried(b));
                }
                CostUpdate.decodeAll(b);
            } finally {
                b.release();
            }
        }
    }

    @Property
    void aReceiverTakesEachSequenceOnceWhateverTheOrder(@ForAll long seed) {
        Random r = new Random(seed);
        ChannelReceiver receiver = new ChannelReceiver(64);
        List<Integer> arrivals = new ArrayList<>();
        for (int s = 0; s < 300; s++) {
            arrivals.add(s);
            if (r.nextInt(4) == 0) {
                arrivals.add(s); // a resend
            }
        }
        // Reorder within windows of 50, as a path may.
        for (int i = 0; i + 50 <= arrivals.size(); i += 25) {
            java.util.Collections.shuffle(arrivals.subList(i, i + 50), r);
        }
        int fresh = 0;
        for (int s : arrivals) {
            if (receiver.accept(9, s) == ChannelReceiver.Verdict.NEW) {
                fresh++;
            }
        }
        assertThat(fresh).isEqualTo(300);
        assertThat(receiver.takeAck().cumulative()).isEqualTo(300);
    }
}
