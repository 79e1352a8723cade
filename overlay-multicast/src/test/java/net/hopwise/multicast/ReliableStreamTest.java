package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.List;
import java.util.SplittableRandom;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import org.junit.jupiter.api.Test;

/** The state of one reliable stream at a node, without a node: gaps, their back-off and retries, delivery. */
class ReliableStreamTest {
    private static final long MS = 1_000_000L;
    private static final StreamKey KEY = new StreamKey(NodeId.ofName("s"), GroupId.ofName("g"), 1, RoutingMetric.HOPS);

    private static ByteBuf packet(long seq, int fragment, int fragments) {
        ByteBuf b = new ReliablePacket(KEY, 7, seq, 0, fragment, fragments).encodeHeader(UnpooledByteBufAllocator.DEFAULT, 1);
        return b.writeByte((int) seq);
    }

    @Test
    void aGapIsAskedAfterItsBackOffThenOncePerRetryUntilItArrives() {
        ReliableStream s = new ReliableStream(KEY, false, 64, 250 * MS, 7, 0);
        try {
            s.restart(7, 0);
            SplittableRandom random = new SplittableRandom(1);
            s.insert(0, packet(0, 0, 1), 0, 40 * MS, random);
            s.insert(3, packet(3, 0, 1), 0, 40 * MS, random);
            assertThat(s.gapCount()).isEqualTo(2);
            assertThat(s.nextGapNanos(0)).as("a back-off per hop and a quarter at random").isBetween(40 * MS, 50 * MS);
            List<long[]> due = s.dueGaps(50 * MS, 100);
            assertThat(due).singleElement().satisfies(r -> assertThat(r).containsExactly(1, 2));
            assertThat(s.nextGapNanos(50 * MS)).isEqualTo(300 * MS);
            assertThat(s.dueGaps(100 * MS, 100)).isEmpty();
            assertThat(s.dueGaps(300 * MS, 100)).hasSize(1);
            s.insert(1, packet(1, 0, 1), 310 * MS, 40 * MS, random);
            s.insert(2, packet(2, 0, 1), 310 * MS, 40 * MS, random);
            assertThat(s.gapCount()).isZero();
            assertThat(s.nextGapNanos(310 * MS)).isEqualTo(Long.MAX_VALUE);
        } finally {
            s.clear();
        }
    }

    @Test
    void aMemberDeliversWholeMessagesInOrderOnceAllTheirPacketsArrive() {
        ReliableStream s = new ReliableStream(KEY, false, 64, 250 * MS, 7, 0);
        try {
            s.restart(7, 5);
            s.delivering = true;
            SplittableRandom random = new SplittableRandom(1);
            s.insert(6, packet(6, 1, 2), 0, 0, random);
            s.insert(8, packet(8, 1, 2), 0, 0, random);
            assertThat(s.nextMessage()).isZero();
            s.insert(5, packet(5, 0, 2), 0, 0, random);
            s.insert(7, packet(7, 0, 2), 0, 0, random);
            assertThat(s.nextMessage()).isEqualTo(2);
            assertThat(s.next).isEqualTo(5);
            s.next += 2;
            assertThat(s.nextMessage()).isEqualTo(2);
            s.next += 2;
            assertThat(s.nextMessage()).isZero();
            assertThat(s.next).isEqualTo(9);
        } finally {
            s.clear();
        }
    }

    @Test
    void aGapHeldWhileOthersAreRepairedIsNeverDueBeforeItIsAskedFor() {
        ReliableStream s = new ReliableStream(KEY, false, 64, 250 * MS, 7, 0);
        try {
            s.restart(7, 0);
            SplittableRandom random = new SplittableRandom(2);
            s.insert(0, packet(0, 0, 1), 0, 40 * MS, random);
            s.insert(5, packet(5, 0, 1), 0, 40 * MS, random);
            // Repairs of other gaps keep coming: the rest wait, and their deadline is never in the past.
            for (long t = 0, seq = 1; t < 400 * MS; t += 10 * MS) {
                if (seq < 4 && t >= 200 * MS) {
                    s.insert(seq, packet(seq, 0, 1), t, 40 * MS, random);
                    seq++;
                }
                long due = s.nextGapNanos(t);
                List<long[]> asked = s.dueGaps(t, 100);
                if (due <= t) {
                    assertThat(asked).as("at %d ms, due at %d ms", t / MS, due / MS).isNotEmpty();
                }
                // What the timer sees next: never a deadline already past, which would spin it.
                assertThat(s.nextGapNanos(t)).as("at %d ms", t / MS).isGreaterThan(t);
            }
        } finally {
            s.clear();
        }
    }

    /** A read buffer of {@code capacity} bytes holding packets {@code first..first+count-1} back to back, as a GRO read does. */
    private static List<ByteBuf> read(ByteBuf buffer, long first, int count) {
        List<ByteBuf> views = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            int at = buffer.writerIndex();
            ByteBuf p = packet(first + i, 0, 1);
            buffer.writeBytes(p);
            p.release();
            views.add(buffer.slice(at, buffer.writerIndex() - at));
        }
        return views;
    }

    @Test
    void aPacketReadWithOthersIsKeptAsAViewOfItsReadBufferNotACopy() {
        ReliableStream s = new ReliableStream(KEY, false, 64, 250 * MS, 7, 0);
        // 40 packets of 45 bytes fill 1800 bytes of the read buffer: dense enough to keep views of.
        ByteBuf buffer = UnpooledByteBufAllocator.DEFAULT.directBuffer(4096);
        try {
            s.restart(7, 0);
            SplittableRandom random = new SplittableRandom(3);
            for (ByteBuf view : read(buffer, 0, 40)) {
                long seq = ReliablePacket.decode(view).sequence();
                assertThat(s.receive(seq, view, UnpooledByteBufAllocator.DEFAULT, 1 << 20, 0, 40 * MS, random))
                        .isEqualTo(ReliableStream.Insert.NEW);
            }
            for (long seq = 0; seq < 40; seq++) {
                assertThat(ReadPins.root(s.get(seq))).as("packet %d", seq).isSameAs(ReadPins.root(buffer));
            }
            // One reference per packet held, and the read buffer counted once.
            assertThat(buffer.refCnt()).isEqualTo(41);
            assertThat(s.pinnedBytes()).isEqualTo(4096);
            s.restart(7, 100);
            assertThat(buffer.refCnt()).isEqualTo(1);
            assertThat(s.pinnedBytes()).isZero();
        } finally {
            s.clear();
            buffer.release();
        }
    }

    @Test
    void packetsReadOneByOneAreCopiedOnceTheirBuffersWouldPassTheBudget() {
        ReliableStream s = new ReliableStream(KEY, false, 64, 250 * MS, 7, 0);
        List<ByteBuf> buffers = new java.util.ArrayList<>();
        try {
            s.restart(7, 0);
            SplittableRandom random = new SplittableRandom(4);
            long budget = 4 * 128;
            for (long seq = 0; seq < 200; seq++) {
                ByteBuf buffer = UnpooledByteBufAllocator.DEFAULT.directBuffer(128);
                buffers.add(buffer);
                ByteBuf view = read(buffer, seq, 1).get(0);
                s.receive(seq, view, UnpooledByteBufAllocator.DEFAULT, budget, 0, 40 * MS, random);
                assertThat(s.pinnedBytes()).as("after %d", seq).isLessThanOrEqualTo(budget);
                long pinnedBuffers = buffers.stream().filter(b -> b.refCnt() > 1).count();
                assertThat(pinnedBuffers * 128).as("buffers held after %d", seq).isLessThanOrEqualTo(budget);
            }
            // As the cache forgets the packets it held as views, later ones are views again: four at a time.
            long views = java.util.stream.LongStream.range(136, 200)
                    .filter(seq -> ReadPins.root(s.get(seq)) == ReadPins.root(buffers.get((int) seq))).count();
            assertThat(views).isEqualTo(4);
        } finally {
            s.clear();
            buffers.forEach(ByteBuf::release);
        }
    }

    @Test
    void aPacketFromAReadBufferMostlyEmptyIsCopied() {
        ReliableStream s = new ReliableStream(KEY, false, 64, 250 * MS, 7, 0);
        ByteBuf buffer = UnpooledByteBufAllocator.DEFAULT.directBuffer(65_536);
        try {
            s.restart(7, 0);
            ByteBuf view = read(buffer, 0, 1).get(0);
            s.receive(0, view, UnpooledByteBufAllocator.DEFAULT, 1 << 30, 0, 40 * MS, new SplittableRandom(5));
            assertThat(ReadPins.root(s.get(0))).isNotSameAs(ReadPins.root(buffer));
            assertThat(buffer.refCnt()).isEqualTo(1);
            assertThat(s.pinnedBytes()).isZero();
        } finally {
            s.clear();
            buffer.release();
        }
    }
}
