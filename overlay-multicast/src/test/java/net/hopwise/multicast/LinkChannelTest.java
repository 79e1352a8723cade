package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A link channel and its receiver joined by a virtual wire of fixed delay, a rate and seeded loss:
 * every packet goes up exactly once whatever is lost, the window follows slow start and halves on a
 * loss, the buffer beyond the window is what prices the link, and nothing held leaks.
 */
class LinkChannelTest {
    private static final long MS = 1_000_000L;
    private static final ByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

    /** A one-way wire each way: the data direction serialises at a rate, the ack direction does not. */
    private static final class Wire {
        record Event(long at, long order, Runnable run) {}

        final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.at != b.at
                ? Long.compare(a.at, b.at) : Long.compare(a.order, b.order));
        final SplittableRandom random;
        final double loss;
        final long delay;
        final long perPacket;
        long order;
        long now;
        long busyUntil;

        Wire(long seed, double loss, long delay, long perPacket) {
            this.random = new SplittableRandom(seed);
            this.loss = loss;
            this.delay = delay;
            this.perPacket = perPacket;
        }

        void at(long t, Runnable r) {
            events.add(new Event(t, order++, r));
        }

        /** Data leaves one after another at the rate; acks only take the delay. */
        void carry(boolean data, Runnable arrival) {
            long leaves = now;
            if (data) {
                busyUntil = Math.max(busyUntil, now) + perPacket;
                leaves = busyUntil;
            }
            if (random.nextDouble() >= loss) {
                at(leaves + delay, arrival);
            }
        }

        void runUntil(long end, LinkChannel channel) {
            while (!events.isEmpty() && events.peek().at <= end) {
                long next = Math.min(events.peek().at, channel.nextDeadlineNanos());
                now = next;
                if (channel.nextDeadlineNanos() <= now) {
                    channel.onTimer(now);
                    continue;
                }
                events.poll().run.run();
            }
            // Timers with nothing else pending.
            while (channel.nextDeadlineNanos() <= end && events.isEmpty()) {
                now = channel.nextDeadlineNanos();
                channel.onTimer(now);
                runUntil(end, channel);
            }
        }
    }

    private static List<Integer> run(long seed, double loss, int packets, List<ByteBuf> offered, double[] peakWindow,
            LinkChannel[] out) {
        Wire wire = new Wire(seed, loss, 10 * MS, MS);
        ChannelReceiver receiver = new ChannelReceiver(256);
        List<Integer> delivered = new ArrayList<>();
        LinkChannel[] channel = new LinkChannel[1];
        channel[0] = new LinkChannel(77, 10_000, ALLOC, body -> {
            int epoch = body.getInt(0);
            int seq = body.getInt(4);
            int payload = body.getInt(ChannelAck.DATA_HEADER);
            body.release();
            wire.carry(true, () -> {
                if (receiver.accept(epoch, seq) == ChannelReceiver.Verdict.NEW) {
                    delivered.add(payload);
                }
                ChannelAck ack = receiver.takeAck();
                if (ack != null) {
                    wire.carry(false, () -> {
                        channel[0].onAck(ack, wire.now);
                        peakWindow[0] = Math.max(peakWindow[0], channel[0].window());
                    });
                }
            });
            return true;
        }, 0);
        out[0] = channel[0];
        for (int i = 0; i < packets; i++) {
            ByteBuf b = ALLOC.buffer(4).writeInt(i);
            offered.add(b);
            channel[0].offer(b, 0);
        }
        wire.runUntil(600_000 * MS, channel[0]);
        return delivered;
    }

    @Test
    void everyPacketGoesUpExactlyOnceOverALossyWireAndNothingLeaks() {
        for (long seed = 1; seed <= 5; seed++) {
            List<ByteBuf> offered = new ArrayList<>();
            LinkChannel[] channel = new LinkChannel[1];
            List<Integer> delivered = run(seed, 0.05, 2000, offered, new double[1], channel);
            assertThat(delivered).as("seed " + seed).hasSize(2000).doesNotHaveDuplicates();
            assertThat(channel[0].resent()).as("seed " + seed + ": losses were repaired").isPositive();
            assertThat(channel[0].buffered()).isZero();
            assertThat(channel[0].inFlight()).isZero();
            assertThat(offered).as("released once acknowledged").allSatisfy(b -> assertThat(b.refCnt()).isZero());
        }
    }

    @Test
    void withoutLossTheWindowGrowsAndTheBufferDrainsInOrder() {
        List<ByteBuf> offered = new ArrayList<>();
        double[] peak = new double[1];
        LinkChannel[] channel = new LinkChannel[1];
        List<Integer> delivered = run(3, 0, 500, offered, peak, channel);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            expected.add(i);
        }
        assertThat(delivered).isEqualTo(expected);
        assertThat(peak[0]).as("slow start past the initial window").isGreaterThan(LinkChannel.INITIAL_WINDOW * 4);
        assertThat(channel[0].resent()).isZero();
    }

    @Test
    void whatTheWindowDoesNotTakeWaitsInTheBufferAndItsAverageIsTheLinksLoad() {
        List<ByteBuf> sent = new ArrayList<>();
        LinkChannel c = new LinkChannel(1, 8, ALLOC, b -> sent.add(b), 0);
        for (int i = 0; i < 10; i++) {
            c.offer(ALLOC.buffer(4).writeInt(i), 0);
        }
        assertThat(sent).as("the initial window").hasSize(4);
        assertThat(c.buffered()).isEqualTo(6);
        assertThat(c.hadQueue()).isTrue();
        assertThat(c.takeAverage(50 * MS)).isEqualTo(6.0);
        // The hard limit: 8 buffered at most, the rest dropped and counted.
        for (int i = 0; i < 5; i++) {
            c.offer(ALLOC.buffer(4).writeInt(100 + i), 50 * MS);
        }
        assertThat(c.buffered()).isEqualTo(8);
        assertThat(c.dropped()).isEqualTo(3);
        // One cumulative acknowledgement of the four: the window grows to eight and takes eight more.
        c.onAck(new ChannelAck(1, 4, new int[0]), 60 * MS);
        assertThat(c.window()).isEqualTo(8);
        assertThat(sent).hasSize(12);
        // An acknowledgement of another epoch is ignored.
        c.onAck(new ChannelAck(2, 12, new int[0]), 61 * MS);
        assertThat(c.inFlight()).isEqualTo(8);
        // Acknowledging 5..11 past a missing 4: it is lost, resent, and the window halves.
        c.onAck(new ChannelAck(1, 4, new int[] {5, 6, 7, 8, 9, 10, 11}), 70 * MS);
        assertThat(c.resent()).isEqualTo(1);
        assertThat(c.window()).isLessThan(9);
        sent.forEach(ByteBuf::release);
        c.close();
    }

    @Test
    void aTimeoutResendsWhatIsInFlightFromAWindowOfOne() {
        List<ByteBuf> sent = new ArrayList<>();
        LinkChannel c = new LinkChannel(1, 100, ALLOC, b -> sent.add(b), 0);
        for (int i = 0; i < 3; i++) {
            c.offer(ALLOC.buffer(4).writeInt(i), 0);
        }
        assertThat(c.nextDeadlineNanos()).isEqualTo(LinkChannel.INITIAL_RTO_NANOS);
        c.onTimer(LinkChannel.INITIAL_RTO_NANOS);
        assertThat(c.window()).isEqualTo(1);
        assertThat(sent).hasSize(4);
        assertThat(c.nextDeadlineNanos()).as("backed off").isEqualTo(3 * LinkChannel.INITIAL_RTO_NANOS);
        sent.forEach(ByteBuf::release);
        c.close();
    }

    /**
     * Round trips that grow from 1 ms to 3 ms as the window grows (a busy event loop answering later):
     * Vegas reads that as queueing and stops, a loss-driven channel keeps growing.
     */
    private static double windowAfterInflatingRoundTrips(LinkChannel c, List<ByteBuf> sent) {
        for (int i = 0; i < 2000; i++) {
            c.offer(ALLOC.buffer(4).writeInt(i), 0);
        }
        long now = 0;
        int acked = 0;
        for (int round = 0; round < 40; round++) {
            now += MS + (long) (c.window() * 40_000); // 1 ms plus 40 µs per packet out
            int upTo = acked + c.inFlight();
            c.onAck(new ChannelAck(1, upTo, new int[0]), now);
            acked = upTo;
        }
        sent.forEach(ByteBuf::release);
        sent.clear();
        double w = c.window();
        c.close();
        return w;
    }

    @Test
    void aLossDrivenChannelGrowsWhereVegasTakesAnAnsweringLoopsDelayForQueueing() {
        List<ByteBuf> sent = new ArrayList<>();
        double vegas = windowAfterInflatingRoundTrips(new LinkChannel(1, 4096, ALLOC, b -> sent.add(b), 0), sent);
        double loss = windowAfterInflatingRoundTrips(LinkChannel.lossDriven(1, 4096, ALLOC, b -> sent.add(b), 0), sent);
        assertThat(vegas).as("Vegas").isLessThan(40);
        assertThat(loss).as("loss-driven").isGreaterThan(4 * vegas);
    }

    /**
     * A neighbour that never drops but serves one packet per 100 µs from a deep buffer (a socket that a
     * busy event loop reads): a loss-driven channel grew to its whole window there, 512 packets and
     * 51 ms of queue in front of everything else the neighbour reads. It now stops near the queueing
     * target and still keeps the neighbour busy.
     */
    @Test
    void aLossDrivenChannelHoldsTheQueueItBuildsNearItsTargetWhereNothingDrops() {
        long perPacket = 100_000L;
        Wire wire = new Wire(7, 0, 50_000L, perPacket);
        ChannelReceiver receiver = new ChannelReceiver(256);
        long[] delivered = new long[1];
        int[] peakInFlight = new int[1];
        long warmUp = 500 * MS;
        LinkChannel[] channel = new LinkChannel[1];
        channel[0] = LinkChannel.lossDrivenWithQueueTarget(9, 40_000, ALLOC, body -> {
            int epoch = body.getInt(0);
            int seq = body.getInt(4);
            body.release();
            wire.carry(true, () -> {
                if (receiver.accept(epoch, seq) == ChannelReceiver.Verdict.NEW && wire.now >= warmUp) {
                    delivered[0]++;
                }
                ChannelAck ack = receiver.takeAck();
                wire.carry(false, () -> {
                    channel[0].onAck(ack, wire.now);
                    if (wire.now >= warmUp) {
                        peakInFlight[0] = Math.max(peakInFlight[0], channel[0].inFlight());
                    }
                });
            });
            return true;
        }, 0);
        for (int i = 0; i < 30_000; i++) {
            channel[0].queue(ALLOC.buffer(4).writeInt(i), 0);
        }
        channel[0].pump(0);
        long end = 2_000 * MS;
        wire.runUntil(end, channel[0]);
        long capacity = (end - warmUp) / perPacket;
        long targetPackets = (LinkChannel.QUEUE_DELAY_TARGET_NANOS + 2 * 50_000L) / perPacket;
        assertThat(peakInFlight[0]).as("packets out after the warm-up, against %d at the target", targetPackets)
                .isLessThan((int) (2 * targetPackets));
        assertThat(delivered[0]).as("the neighbour kept busy").isGreaterThan(capacity * 95 / 100);
        assertThat(channel[0].resent()).isZero();
        channel[0].close();
    }

    @Test
    void aDatagramTheSocketRefusesIsNeitherInFlightNorLostAndGoesFirstOnceItHasRoom() {
        List<ByteBuf> sent = new ArrayList<>();
        boolean[] full = {false};
        LinkChannel c = LinkChannel.lossDriven(1, 100, ALLOC, b -> {
            if (full[0]) {
                b.release();
                return false;
            }
            return sent.add(b);
        }, 0);
        c.offer(ALLOC.buffer(4).writeInt(0), 0);
        full[0] = true;
        c.offer(ALLOC.buffer(4).writeInt(1), 0);
        c.offer(ALLOC.buffer(4).writeInt(2), 0);
        assertThat(c.inFlight()).as("only what the socket took").isEqualTo(1);
        assertThat(c.nextDeadlineNanos()).as("tries again after the refusal's wait").isEqualTo(
                LinkChannel.REFUSED_RETRY_NANOS);
        full[0] = false;
        c.onTimer(LinkChannel.REFUSED_RETRY_NANOS);
        assertThat(sent).hasSize(3);
        assertThat(sent.get(1).getInt(4)).as("the refused one, by its channel sequence, first").isEqualTo(1);
        assertThat(c.resent()).as("a refusal is no loss: the window stays").isEqualTo(1);
        assertThat(c.window()).isEqualTo(LinkChannel.INITIAL_WINDOW);
        c.onAck(new ChannelAck(1, 3, new int[0]), 2 * LinkChannel.REFUSED_RETRY_NANOS);
        assertThat(c.inFlight()).isZero();
        sent.forEach(ByteBuf::release);
        c.close();
    }

    @Test
    void aReceiverTakesANewEpochFromZeroAndAcknowledgesDuplicates() {
        ChannelReceiver r = new ChannelReceiver(16);
        assertThat(r.accept(5, 0)).isEqualTo(ChannelReceiver.Verdict.NEW);
        assertThat(r.accept(5, 2)).isEqualTo(ChannelReceiver.Verdict.NEW);
        assertThat(r.accept(5, 2)).isEqualTo(ChannelReceiver.Verdict.DUPLICATE);
        ChannelAck ack = r.takeAck();
        assertThat(ack.cumulative()).isEqualTo(1);
        assertThat(ack.sequences()).containsExactly(2, 2);
        assertThat(r.takeAck()).isNull();
        assertThat(r.accept(5, 0)).isEqualTo(ChannelReceiver.Verdict.DUPLICATE);
        assertThat(r.accept(5, 1 + ChannelReceiver.WINDOW)).isEqualTo(ChannelReceiver.Verdict.OUT_OF_WINDOW);
        assertThat(r.accept(6, 0)).as("a new epoch").isEqualTo(ChannelReceiver.Verdict.NEW);
        assertThat(r.takeAck().cumulative()).isEqualTo(1);
    }
}
