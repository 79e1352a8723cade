package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Deficit round robin across sessions on one relay link, on virtual time. */
class FairLinkQueueTest {
    private static final long SECOND = 1_000_000_000L;
    private static final int PACKET = 512;

    /** Two sessions offering {@code periodA} and {@code periodB} apart to a 1 Mbit/s link for 10 s: packets each sent. */
    private static long[] run(FairLinkQueue q, long periodA, long periodB, List<ByteBuf> all) {
        long[] sent = new long[2];
        long nextA = 0;
        long nextB = 0;
        long end = 10 * SECOND;
        while (true) {
            long t = Math.min(Math.min(nextA, nextB), q.nextDeadlineNanos());
            if (t >= end) {
                break;
            }
            if (t == nextA) {
                q.offer("A", packet(0, all));
                nextA += periodA;
            }
            if (t == nextB) {
                q.offer("B", packet(1, all));
                nextB += periodB;
            }
            q.drain(t, b -> {
                sent[b.getByte(0)]++;
                b.release();
            });
        }
        q.clear();
        return sent;
    }

    private static ByteBuf packet(int session, List<ByteBuf> all) {
        ByteBuf b = Unpooled.buffer(PACKET).writeZero(PACKET);
        b.setByte(0, session);
        all.add(b);
        return b;
    }

    @Test
    void twoSessionsOverrunningALinkShareItEquallyWhateverTheyOffer() {
        List<ByteBuf> all = new ArrayList<>();
        FairLinkQueue q = new FairLinkQueue(1_000_000, 16);
        // A offers 1.5 Mbit/s, B 750 Kbit/s, on 1 Mbit/s: each is owed 500 Kbit/s, 1220 packets in 10 s.
        long[] sent = run(q, 8L * PACKET * SECOND / 1_500_000, 8L * PACKET * SECOND / 750_000, all);
        assertThat(sent[0] + sent[1]).isBetween(2440L, 2442L);
        assertThat(Math.abs(sent[0] - sent[1])).isLessThanOrEqualTo(2);
        assertThat(q.dropped()).isPositive();
        assertThat(all).allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }

    @Test
    void aSessionBelowItsShareLosesNothingAndTheOtherTakesTheRest() {
        List<ByteBuf> all = new ArrayList<>();
        FairLinkQueue q = new FairLinkQueue(1_000_000, 16);
        // A offers 2 Mbit/s, B 200 Kbit/s: B keeps all 488 of its packets, A gets the other 800 Kbit/s.
        long periodB = 8L * PACKET * SECOND / 200_000;
        long[] sent = run(q, 8L * PACKET * SECOND / 2_000_000, periodB, all);
        long offeredB = (10 * SECOND + periodB - 1) / periodB;
        assertThat(sent[1]).isBetween(offeredB - 1, offeredB);
        assertThat(sent[0] + sent[1]).isBetween(2440L, 2442L);
        assertThat(all).allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }

    @Test
    void theLinkIsPacedAtItsRate() {
        List<ByteBuf> all = new ArrayList<>();
        FairLinkQueue q = new FairLinkQueue(1_000_000, 16);
        for (int i = 0; i < 4; i++) {
            q.offer("A", packet(0, all));
        }
        List<Long> times = new ArrayList<>();
        long t = 0;
        while (q.nextDeadlineNanos() != Long.MAX_VALUE) {
            t = Math.max(t, q.nextDeadlineNanos());
            long at = t;
            q.drain(t, b -> {
                times.add(at);
                b.release();
            });
        }
        // 512 bytes at 1 Mbit/s: 4.096 ms apart, the first at once.
        assertThat(times).containsExactly(0L, 4_096_000L, 8_192_000L, 12_288_000L);
        assertThat(q.sent()).isEqualTo(4);
    }

    @Test
    void aFullSessionQueueDropsAndReleasesAndClearReleasesTheRest() {
        List<ByteBuf> all = new ArrayList<>();
        FairLinkQueue q = new FairLinkQueue(1_000_000, 2);
        assertThat(q.offer("A", packet(0, all))).isTrue();
        assertThat(q.offer("A", packet(0, all))).isTrue();
        assertThat(q.offer("A", packet(0, all))).isFalse();
        assertThat(q.offer("B", packet(1, all))).isTrue();
        assertThat(q.dropped()).isEqualTo(1);
        assertThat(q.queued()).isEqualTo(3);
        assertThat(all.get(2).refCnt()).isZero();
        q.clear();
        assertThat(all).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(q.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> new FairLinkQueue(0, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RelayQueueing.fair(1_000_000, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Everything queued, sent as the link frees: each packet's first byte. */
    private static List<Integer> drainAll(FairLinkQueue q) {
        List<Integer> order = new ArrayList<>();
        long t = 0;
        while (q.nextDeadlineNanos() != Long.MAX_VALUE) {
            t = Math.max(t, q.nextDeadlineNanos());
            q.drain(t, b -> {
                order.add((int) b.getByte(0));
                b.release();
            });
        }
        return order;
    }

    @Test
    void aBunchsPacketsLeaveOneTurnApartSoAPairMeasuresTheSessionsShare() {
        // ERA's receivers read their share from how far apart a bunch's packets arrive: with three
        // sessions backlogged, a pair must leave with one packet of each other session between, as
        // per-packet fair queuing spaces it (a quantum of several packets sent pairs back to back
        // one turn and split them over two turns the next, reading the whole link or a seventh of it).
        List<ByteBuf> all = new ArrayList<>();
        FairLinkQueue q = new FairLinkQueue(1_000_000, 16);
        for (int bunch = 0; bunch < 3; bunch++) {
            for (int s = 0; s < 3; s++) {
                q.offer("S" + s, packet(s, all));
                q.offer("S" + s, packet(s, all));
            }
        }
        assertThat(drainAll(q)).containsExactly(0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2);
        assertThat(all).allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }

    @Test
    void sessionsOfDifferentPacketSizesStillShareBytesEqually() {
        List<ByteBuf> all = new ArrayList<>();
        FairLinkQueue q = new FairLinkQueue(1_000_000, 64);
        for (int i = 0; i < 60; i++) {
            q.offer("small", packet(0, all));
        }
        for (int i = 0; i < 30; i++) {
            ByteBuf b = Unpooled.buffer(2 * PACKET).writeZero(2 * PACKET);
            b.setByte(0, 1);
            all.add(b);
            q.offer("large", b);
        }
        List<Integer> order = drainAll(q);
        // While both are backlogged (the first 60 packets), bytes sent differ by at most one large packet.
        long small = 0;
        long large = 0;
        for (int k = 0; k < 60; k++) {
            if (order.get(k) == 0) {
                small += PACKET;
            } else {
                large += 2 * PACKET;
            }
            assertThat(Math.abs(small - large)).as("after %d packets", k + 1).isLessThanOrEqualTo(2 * PACKET);
        }
        assertThat(all).allSatisfy(b -> assertThat(b.refCnt()).isZero());
    }
}
