package net.hopwise.overlay.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.session.SessionHeader;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the sender's timers fire, on virtual time: a lost tail packet is sent again one timeout after
 * its own transmission while acknowledgements still flow (a loss, not a timeout), silence for a
 * whole timeout is still RFC 6298's timeout with the window back to one packet, and a lone last
 * packet is probed once a quarter of a round trip after it left, unless the link is busy.
 */
class ReliableLinkSenderTest {
    private static final long MS = 1_000_000L;
    private static final long RTT = 20 * MS;
    private static final int SEGMENT = ReliableLinkConfig.DEFAULT_SEGMENT_BYTES;

    private record Transmission(long at, int sequence, boolean again) {}

    /** A congestion window that never limits: the tests that use it see the send window and timers alone. */
    private static final CongestionController WIDE_OPEN = new CongestionController() {
        @Override
        public long window() {
            return Long.MAX_VALUE / 4;
        }

        @Override
        public void onAcknowledged(long bytes, long rttNanos, boolean windowLimited, long nowNanos) {}

        @Override
        public void onLoss(long nowNanos) {}

        @Override
        public void onTimeout(long nowNanos) {}

        @Override
        public long slowStartThreshold() {
            return Long.MAX_VALUE;
        }
    };

    private final List<Transmission> sent = new ArrayList<>();
    private long now;
    private ReliableLinkSender sender;

    @AfterAll
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    @BeforeEach
    void start() {
        // The timer tests see the timers alone; the probe tests below switch probes on.
        use(ReliableLinkConfig.builder().tailProbe(false).build());
    }

    private void use(ReliableLinkConfig config) {
        if (sender != null) {
            sender.close();
        }
        sender = new ReliableLinkSender(config, 7,
                (epoch, sequence, base, packet, again) -> sent.add(new Transmission(now, sequence, again)));
        sender.seedRtt(RTT);
    }

    @AfterEach
    void close() {
        sender.close();
    }

    private void offer() {
        // 1000 bytes, 1072 on the wire: four fit RFC 3390's initial window of 4380 bytes, one a segment.
        ByteBuf packet = PooledByteBufAllocator.DEFAULT.buffer(1000).writeLong(now).writeZero(992);
        assertThat(sender.offer(packet, now)).isTrue();
    }

    private void ack(int cumulative, int... blocks) {
        sender.onAck(new LinkAck(7, cumulative, blocks), now);
    }

    /** Runs the timer at every deadline up to {@code until}. */
    private void advanceTo(long until) {
        while (sender.nextDeadlineNanos() <= until) {
            now = Math.max(now, sender.nextDeadlineNanos());
            sender.onTimer(now);
        }
        now = until;
    }

    /** One packet per round trip, each acknowledged after exactly RTT: the variation decays to nothing. */
    private int warmUp() {
        int seq = 0;
        for (; seq < 30; seq++) {
            offer();
            advanceTo(now + RTT);
            ack(seq + 1);
        }
        assertThat(sender.srttNanos()).isEqualTo(RTT);
        // srtt + half of it: the least margin in proportion to the round trip, above RFC 6298's 4 rttvar
        // (decayed to nothing) and granularity term (2 ms)
        assertThat(sender.timeoutNanos()).isEqualTo(RTT + RTT / 2);
        return seq;
    }

    /**
     * A steady 20 ms link whose acknowledgements come 5 ms late for a while (the host or the JVM
     * paused): nothing is resent, with or without probes. With a timeout of srtt + 2 ms, as RFC
     * 6298's margin gives once the variation has decayed, every such packet was resent.
     */
    @Test
    void aFiveMillisecondPauseOfATwentyMillisecondPathResendsNothing() {
        for (boolean probes : new boolean[] {false, true}) {
            use(ReliableLinkConfig.builder().tailProbe(probes).build());
            int seq = warmUp();
            for (int k = 0; k < 5; k++) {
                offer(); // one packet every 32 ms, each acknowledged 25 ms after it left
                advanceTo(now + RTT + 5 * MS);
                ack(seq + k + 1);
                advanceTo(now + 7 * MS);
            }
            assertThat(sender.retransmissions()).as("resends, probes " + probes).isZero();
            assertThat(sender.tailLosses()).isZero();
            assertThat(sender.timeouts()).isZero();
            assertThat(sender.unacknowledged()).isZero();
        }
    }

    @Test
    void aLostTailPacketIsSentAgainOneTimeoutAfterItsOwnTransmission() {
        int seq = warmUp();
        long timeout = sender.timeoutNanos();
        offer(); // acknowledged in time
        long lostAt = now + 4 * MS;
        advanceTo(lostAt);
        offer(); // lost: nothing after it can reveal that
        int lost = seq + 1;
        advanceTo(lostAt - 4 * MS + RTT);
        ack(seq + 1); // the acknowledgement clock still runs
        sent.clear();

        advanceTo(lostAt + timeout - 1);
        assertThat(sent).isEmpty();
        advanceTo(lostAt + timeout);
        assertThat(sent).containsExactly(new Transmission(lostAt + timeout, lost, true));
        assertThat(sender.tailLosses()).isEqualTo(1);
        assertThat(sender.timeouts()).isZero();
        assertThat(sender.lossEvents()).isEqualTo(1);
        assertThat(sender.congestionWindowBytes()).isGreaterThanOrEqualTo(2 * SEGMENT); // halved, not back to one

        advanceTo(now + RTT);
        ack(lost + 1);
        assertThat(sender.unacknowledged()).isZero();
        assertThat(sender.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * A hole the acknowledgements never reveal, behind tail packets the receiver holds but cannot
     * name (more holes before them than it has SACK blocks, so every acknowledgement repeats the same
     * blocks): the tail packets are lost again and again by their own timers, whose clocks are a few
     * milliseconds apart, and only a timeout resends the hole. When each of those losses restarted the
     * timeout, it never came and the link stalled for good (found by ReliableLinkProperties at 30% loss).
     */
    @Test
    void tailPacketsLostAgainAndAgainDoNotHoldOffTheTimeoutThatResendsTheHole() {
        sender.close();
        sender = new ReliableLinkSender(ReliableLinkConfig.builder().tailProbe(false)
                .congestionControl((m, s) -> WIDE_OPEN).build(), 7,
                (epoch, sequence, base, packet, again) -> sent.add(new Transmission(now, sequence, again)));
        sender.seedRtt(RTT);
        offer(); // 0, the hole: lost, and too far from the tail for a tail-loss timer
        offer(); // 1: reaches the receiver, named by a SACK block
        offer(); // 2: reaches the receiver, never named
        advanceTo(5 * MS);
        offer(); // 3: reaches the receiver, never named
        advanceTo(RTT);
        ack(0, 1, 2);
        long timeout = sender.timeoutNanos();
        sent.clear();
        for (long t = RTT + 5 * MS; t < 20 * timeout; t += 5 * MS) {
            advanceTo(t);
            ack(0, 1, 2); // each resent tail packet acknowledged the same way: nothing new
        }
        assertThat(sent).as("the tail packets were lost by their own timers").anyMatch(tx -> tx.sequence() == 3);
        assertThat(sender.timeouts()).isGreaterThanOrEqualTo(1);
        assertThat(sent).anyMatch(tx -> tx.sequence() == 0 && tx.again());
    }

    @Test
    void silenceForAWholeTimeoutIsATimeout() {
        warmUp();
        long timeout = sender.timeoutNanos();
        long flight = now;
        offer();
        offer();
        offer();
        sent.clear();

        advanceTo(flight + timeout);
        assertThat(sender.timeouts()).isEqualTo(1);
        assertThat(sender.tailLosses()).isZero();
        assertThat(sender.congestionWindowBytes()).isEqualTo(SEGMENT);
        assertThat(sent).hasSize(1).allMatch(Transmission::again);
        assertThat(sender.nextDeadlineNanos()).isEqualTo(flight + 3 * timeout); // backed off: doubled
    }

    /**
     * A flight whose acknowledgements all come 15 ms after the timeout (the receiving host paused):
     * the timeout resends one packet, and the first acknowledgement, of packets sent before it and
     * never again, shows it spurious: the window it took is given back and nothing else is resent.
     * Without the undo a paused receiver left a bulk link at one segment, resending its flight.
     */
    @Test
    void aTimeoutThatLateAcknowledgementsShowSpuriousIsUndone() {
        int seq = warmUp();
        long window = sender.congestionWindowBytes();
        long flight = now;
        for (int k = 0; k < 4; k++) {
            offer(); // the initial window's four packets
        }
        long timeout = sender.timeoutNanos();
        advanceTo(flight + timeout);
        assertThat(sender.timeouts()).isEqualTo(1);
        assertThat(sender.congestionWindowBytes()).isEqualTo(SEGMENT);
        advanceTo(flight + timeout + 15 * MS);
        ack(seq + 4); // every original arrived; only their acknowledgements were late
        assertThat(sender.congestionWindowBytes()).isGreaterThanOrEqualTo(window); // given back, and grown by what was acknowledged
        assertThat(sender.spuriousTimeouts()).isEqualTo(1);
        assertThat(sender.retransmissions()).isEqualTo(1);
        assertThat(sender.unacknowledged()).isZero();
    }

    @Test
    void aTimeoutWhoseResendIsWhatArrivesStands() {
        int seq = warmUp();
        long window = sender.congestionWindowBytes();
        long flight = now;
        for (int k = 0; k < 4; k++) {
            offer(); // all four lost
        }
        long timeout = sender.timeoutNanos();
        advanceTo(flight + timeout + RTT);
        ack(seq + 1); // the resent first packet: the timeout was real
        assertThat(sender.spuriousTimeouts()).isZero();
        assertThat(sender.congestionWindowBytes()).isLessThan(window);
        assertThat(sender.lossEvents()).isZero();
    }

    @Test
    void aPacketAcknowledgedInTimeIsNeverSentAgain() {
        int seq = warmUp();
        for (int k = 0; k < 50; k++) {
            offer(); // one packet every 16 ms, each acknowledged after the 20 ms round trip
            advanceTo(now + 4 * MS);
            if (k > 0) {
                ack(seq + k);
            }
            advanceTo(now + 12 * MS);
        }
        advanceTo(now + 4 * MS);
        ack(seq + 50);
        assertThat(sent).noneMatch(Transmission::again);
        assertThat(sender.tailLosses()).isZero();
        assertThat(sender.timeouts()).isZero();
    }

    // ---------------------------------------------------------------- tail probes (on by default)

    @Test
    void aLoneLostPacketIsProbedAQuarterRoundTripAfterItLeft() {
        use(ReliableLinkConfig.defaults());
        int seq = warmUp(); // every warm-up packet was probed too, before its acknowledgement came
        assertThat(sender.tailProbes()).isEqualTo(seq);
        sent.clear();
        long probeAt = now + RTT / 4;
        offer(); // lost; only its probe arrives
        advanceTo(probeAt - 1);
        assertThat(sent).containsExactly(new Transmission(probeAt - RTT / 4, seq, false));
        advanceTo(probeAt);
        assertThat(sent).endsWith(new Transmission(probeAt, seq, true));
        long window = sender.congestionWindowBytes();

        advanceTo(probeAt + RTT);
        ack(seq + 1); // the probe's acknowledgement completes the packet
        assertThat(sender.unacknowledged()).isZero();
        assertThat(sender.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(sender.tailProbes()).isEqualTo(seq + 1);
        assertThat(sender.retransmissions()).isZero();
        assertThat(sender.lossEvents()).isZero();
        assertThat(sender.congestionWindowBytes()).isEqualTo(window); // a probe is no congestion signal
        assertThat(sent).hasSize(2);
    }

    @Test
    void onlyTheLastPacketOfAFlightIsProbedAndOnlyOnce() {
        use(ReliableLinkConfig.defaults());
        int seq = warmUp();
        sent.clear();
        long flight = now;
        offer();
        offer();
        offer();
        advanceTo(flight + RTT - 1);
        assertThat(sent).containsExactly(new Transmission(flight, seq, false), new Transmission(flight, seq + 1, false),
                new Transmission(flight, seq + 2, false), new Transmission(flight + RTT / 4, seq + 2, true));
        advanceTo(flight + RTT);
        ack(seq + 2); // the first two arrive; the last and its probe were both lost
        long timeout = sender.timeoutNanos();
        long resendAt = flight + RTT / 4 + timeout; // the tail-loss timer restarted with the probe
        advanceTo(resendAt - 1);
        assertThat(sent).hasSize(4); // not probed a second time
        advanceTo(resendAt);
        assertThat(sent).hasSize(5).last().isEqualTo(new Transmission(resendAt, seq + 2, true));
        assertThat(sender.timeouts()).isZero();
        assertThat(sender.tailLosses()).isEqualTo(1); // the tail-loss timer still stands behind the probe
    }

    @Test
    void aFlightHeldBackByTheCongestionWindowIsNotProbed() {
        use(ReliableLinkConfig.defaults());
        long flight = now;
        for (int k = 0; k < 10; k++) {
            offer(); // the initial window lets 4 out, 6 wait
        }
        assertThat(sent).hasSize(4);
        advanceTo(flight + RTT / 4 + RTT / 8);
        assertThat(sent).hasSize(4).noneMatch(Transmission::again);
        assertThat(sender.tailProbes()).isZero();
    }

    @Test
    void aSessionAcknowledgementAloneIsNotProbedButStillRecovered() {
        use(ReliableLinkConfig.defaults());
        int seq = warmUp();
        sent.clear();
        long at = now;
        ByteBuf ack = PooledByteBufAllocator.DEFAULT.buffer(SessionHeader.PAYLOAD_OFFSET).writeZero(SessionHeader.PAYLOAD_OFFSET);
        ack.setByte(SessionHeader.OFFSET_KIND, SessionHeader.KIND_ACK);
        assertThat(sender.offer(ack, now)).isTrue(); // lost
        advanceTo(at + RTT);
        assertThat(sent).containsExactly(new Transmission(at, seq, false)); // no probe
        long timeout = sender.timeoutNanos();
        advanceTo(at + timeout);
        assertThat(sent).last().isEqualTo(new Transmission(at + timeout, seq, true)); // the tail-loss timer
        assertThat(sender.tailProbes()).isEqualTo(seq); // the warm-up's data packets only
        advanceTo(now + RTT);
        ack(seq + 1);
        assertThat(sender.unacknowledged()).isZero();
    }

    @Test
    void withoutHopByHopRecoveryNothingIsProbed() {
        use(ReliableLinkConfig.builder().recovery(false).build());
        offer();
        advanceTo(now + RTT / 2);
        assertThat(sent).hasSize(1);
        assertThat(sender.tailProbes()).isZero();
    }

    // ---------------------------------------------------------------- a round trip that grows at once

    /**
     * A path of 1 ms becomes one of 20 ms (an estimate taken before a delay appeared, or a longer
     * underlay path): every packet outlives the old timeout. The sender must find the new round trip
     * and stop resending; it once resent every packet forever, because each acknowledgement of a
     * resent packet reset the backoff without giving a sample.
     */
    @Test
    void aRoundTripThatGrowsTwentyfoldIsLearnedAndResendingStops() {
        sender.close();
        sender = new ReliableLinkSender(ReliableLinkConfig.builder().tailProbe(false).build(), 7,
                (epoch, sequence, base, packet, again) -> {
                    sent.add(new Transmission(now, sequence, again));
                    pendingAcks.add(new long[] {now + pathRtt, sequence});
                });
        sender.seedRtt(MS);
        pathRtt = MS;
        int seq = 0;
        for (; seq < 30; seq++) {
            offer();
            runLink(now + 16 * MS);
        }
        assertThat(sender.srttNanos()).isLessThan(2 * MS);
        pathRtt = RTT;
        for (; seq < 30 + 125; seq++) { // 2 s of one packet every 16 ms
            offer();
            runLink(now + 16 * MS);
        }
        runLink(now + 200 * MS);
        long resendsBefore = sender.retransmissions();
        for (; seq < 30 + 250; seq++) {
            offer();
            runLink(now + 16 * MS);
        }
        runLink(now + 200 * MS);
        assertThat(sender.srttNanos()).isBetween(RTT - MS, RTT + MS);
        assertThat(sender.retransmissions() - resendsBefore).as("resends in the last 2 s").isZero();
        assertThat(sender.unacknowledged()).isZero();
    }

    private long pathRtt;
    /** Acknowledgements on their way back: {arrival time, sequence}; the receiver gets every packet. */
    private final java.util.PriorityQueue<long[]> pendingAcks =
            new java.util.PriorityQueue<>(java.util.Comparator.comparingLong((long[] a) -> a[0]));
    private final java.util.BitSet received = new java.util.BitSet();

    /** Delivers acknowledgements and runs the sender's timer in time order up to {@code until}. */
    private void runLink(long until) {
        while (true) {
            long ackAt = pendingAcks.isEmpty() ? Long.MAX_VALUE : pendingAcks.peek()[0];
            long timerAt = sender.nextDeadlineNanos();
            long t = Math.min(ackAt, timerAt);
            if (t > until) {
                break;
            }
            now = Math.max(now, t);
            if (ackAt <= timerAt) {
                received.set((int) pendingAcks.poll()[1]);
                sender.onAck(new LinkAck(7, received.nextClearBit(0), new int[0]), now);
            } else {
                sender.onTimer(now);
            }
        }
        now = until;
    }

    // ---------------------------------------------------------------- slots that grow with the flight

    @Test
    void slotsGrowWithTheFlightAndKeepEveryPacketAtItsSequenceNumber() {
        sender.close();
        sender = new ReliableLinkSender(ReliableLinkConfig.builder().tailProbe(false).congestionControl((m, s) -> WIDE_OPEN)
                .queueLimit(1024).markThreshold(32).build(), 7,
                (epoch, sequence, base, packet, again) -> sent.add(new Transmission(now, sequence, again)));
        sender.seedRtt(RTT);
        assertThat(sender.slots()).isEqualTo(Rings.INITIAL_SLOTS);
        for (int k = 0; k < 300; k++) {
            offer();
        }
        assertThat(sent).hasSize(300);
        assertThat(sender.slots()).isEqualTo(512);
        now += RTT;
        ack(0, 1, 300); // all but the first arrived: it is lost, revealed by the later ones
        assertThat(sent).hasSize(301).last().isEqualTo(new Transmission(now, 0, true));
        now += RTT;
        ack(300);
        assertThat(sender.unacknowledged()).isZero();
        assertThat(sender.slots()).isEqualTo(512); // kept: a link that needed them will again
    }
}
