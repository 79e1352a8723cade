package net.hopwise.overlay.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The real-time link machines on virtual time, one rule at a time. */
class RealTimeLinkTest {
    private static final long MS = 1_000_000L;

    private final List<Long> resent = new ArrayList<>();
    private final List<String> evicted = new ArrayList<>();
    private final List<List<Long>> nacks = new ArrayList<>();

    private RealTimeLinkSender<String> sender(RealTimeConfig config) {
        return new RealTimeLinkSender<>(config, new RealTimeLinkSender.Output<>() {
            @Override
            public void retransmit(long seq, String packet) {
                assertThat(packet).isEqualTo("p" + seq);
                resent.add(seq);
            }

            @Override
            public void evicted(String packet) {
                evicted.add(packet);
            }
        });
    }

    private RealTimeLinkReceiver receiver(RealTimeConfig config) {
        return new RealTimeLinkReceiver(config, (sequences, count) -> {
            List<Long> list = new ArrayList<>();
            for (int k = 0; k < count; k++) {
                list.add(sequences[k]);
            }
            nacks.add(list);
        });
    }

    private static void send(RealTimeLinkSender<String> s, long now) {
        s.sent("p" + s.nextSequence(), now);
    }

    private static void nack(RealTimeLinkSender<String> s, long now, long... seqs) {
        s.onNack(seqs, seqs.length, now);
    }

    @Test
    void retransmitsOnlyWhilePacketIsInHistory() {
        RealTimeLinkSender<String> s = sender(RealTimeConfig.defaults());
        send(s, 0);
        send(s, 10 * MS);
        assertThat(s.nextDeadlineNanos()).as("a history after the oldest expires: sends and NACKs expire on their own")
                .isEqualTo(200 * MS);
        nack(s, 99 * MS, 0);
        assertThat(resent).containsExactly(0L);
        nack(s, 100 * MS, 0);
        nack(s, 110 * MS, 1);
        assertThat(resent).as("past the 100 ms deadline nothing is resent").containsExactly(0L);
        assertThat(s.refusedExpired()).isEqualTo(2);
        assertThat(evicted).containsExactly("p0", "p1");
        assertThat(s.historySize()).isZero();
        assertThat(s.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * A flow sending a packet every 2 ms keeps its history within the 100 ms span by its sends alone,
     * and never asks for the timer sooner than a history ahead; once it stops, one timer frees it all.
     */
    @Test
    void aSendingFlowNeedsNoTimerAndOneTimerFreesAStoppedFlow() {
        RealTimeLinkSender<String> s = sender(RealTimeConfig.defaults());
        long now = 0;
        for (int i = 0; i < 500; i++, now += 2 * MS) {
            send(s, now);
            assertThat(s.historySize()).as("at %d ms", now / MS).isLessThanOrEqualTo(51);
            assertThat(s.nextDeadlineNanos()).as("at %d ms", now / MS).isGreaterThanOrEqualTo(now + 100 * MS);
        }
        long last = now - 2 * MS;
        assertThat(evicted).hasSize(500 - s.historySize());
        long timer = s.nextDeadlineNanos();
        assertThat(timer).isLessThanOrEqualTo(last + 200 * MS);
        s.onTimer(timer);
        assertThat(s.historySize()).isZero();
        assertThat(evicted).hasSize(500);
        assertThat(s.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void timerReleasesExpiredPacketsAndCapacityDisplacesTheOldest() {
        RealTimeLinkSender<String> s = sender(RealTimeConfig.builder().historyCapacity(4).build());
        for (int i = 0; i < 6; i++) {
            send(s, i * MS);
        }
        assertThat(evicted).containsExactly("p0", "p1");
        nack(s, 6 * MS, 1, 2);
        assertThat(resent).containsExactly(2L);
        s.onTimer(103 * MS);
        assertThat(evicted).containsExactly("p0", "p1", "p2", "p3");
        s.close();
        assertThat(evicted).hasSize(6);
    }

    @Test
    void tokenBucketCapsRetransmissionsAtTheShareOfData() {
        RealTimeLinkSender<String> s = sender(RealTimeConfig.builder().tokenBucketCapacity(3).build());
        for (int i = 0; i < 20; i++) {
            send(s, 0);
        }
        long[] all = new long[20];
        for (int i = 0; i < 20; i++) {
            all[i] = i;
        }
        s.onNack(all, 20, MS);
        assertThat(resent).as("a full bucket of 3 tokens").containsExactly(0L, 1L, 2L);
        assertThat(s.refusedTokens()).isEqualTo(17);
        for (int i = 0; i < 5; i++) {
            send(s, 2 * MS);
        }
        s.onNack(all, 20, 3 * MS);
        assertThat(resent).as("five data packets at 20% earn one more").containsExactly(0L, 1L, 2L, 3L);
        nack(s, 4 * MS, 0, 1, 2);
        assertThat(resent).as("each packet is resent at most once").hasSize(4);
        assertThat(s.retransmissions()).isEqualTo(4);
    }

    @Test
    void oneNackPerGapOnTheFirstOutOfOrderPacket() {
        RealTimeLinkReceiver r = receiver(RealTimeConfig.defaults());
        assertThat(r.onPacket(0)).isTrue();
        assertThat(r.onPacket(3)).isTrue();
        assertThat(nacks).containsExactly(List.of(1L, 2L));
        assertThat(r.onPacket(4)).isTrue();
        assertThat(r.onPacket(1)).as("a retransmission is passed on").isTrue();
        assertThat(r.onPacket(7)).isTrue();
        assertThat(r.onPacket(8)).isTrue();
        assertThat(nacks).as("2 stays missing but is never asked for again")
                .containsExactly(List.of(1L, 2L), List.of(5L, 6L));
        assertThat(r.nacksSent()).isEqualTo(2);
        assertThat(r.recovered()).isEqualTo(1);
    }

    @Test
    void duplicatesArePassedOnOnce() {
        RealTimeLinkReceiver r = receiver(RealTimeConfig.defaults());
        assertThat(r.onPacket(0)).isTrue();
        assertThat(r.onPacket(2)).isTrue();
        assertThat(r.onPacket(1)).isTrue();
        assertThat(r.onPacket(1)).as("late original after its retransmission").isFalse();
        assertThat(r.onPacket(2)).isFalse();
        assertThat(r.onPacket(0)).isFalse();
        assertThat(r.duplicates()).isEqualTo(3);
        assertThat(r.packets()).isEqualTo(3);
    }

    @Test
    void withoutRecoveryNothingIsAskedForOrKept() {
        RealTimeConfig off = RealTimeConfig.builder().recovery(false).build();
        RealTimeLinkReceiver r = receiver(off);
        r.onPacket(0);
        r.onPacket(5);
        assertThat(nacks).isEmpty();
        RealTimeLinkSender<String> s = sender(off);
        send(s, 0);
        assertThat(evicted).containsExactly("p0");
        nack(s, 1, 0);
        assertThat(resent).isEmpty();
    }

    @Test
    void sequenceNumbersWrapAroundThirtyTwoBits() {
        RealTimeLinkReceiver r = receiver(RealTimeConfig.defaults());
        assertThat(r.onPacket(0xFFFF_FFFEL)).isTrue();
        assertThat(r.onPacket(1)).isTrue();
        assertThat(nacks).containsExactly(List.of(0xFFFF_FFFFL, 0x1_0000_0000L));
        assertThat(r.onPacket(0xFFFF_FFFFL)).isTrue();
        assertThat(r.onPacket(0xFFFF_FFFFL)).isFalse();

        // The sender matches a NACK's 32-bit numbers to what it sent last.
        RealTimeLinkSender<String> s = sender(RealTimeConfig.defaults());
        for (int i = 0; i < 3; i++) {
            send(s, 0);
        }
        nack(s, 1, 0x1_0000_0001L);
        assertThat(resent).containsExactly(1L);
    }

    @Test
    void nackCodecRoundTripsAndRefusesMalformedBodies() {
        ByteBuf buf = Unpooled.buffer();
        RealTimeCodec.writeNack(buf, new long[] {7, 0xFFFF_FFFFL}, 2);
        long[] into = new long[RealTimeCodec.MAX_NACK_SEQUENCES];
        assertThat(RealTimeCodec.readNack(buf, into)).isEqualTo(2);
        assertThat(into[0]).isEqualTo(7);
        assertThat(into[1]).isEqualTo(0xFFFF_FFFFL);
        assertThat(RealTimeCodec.readNack(buf.slice(0, 9), into)).isEqualTo(-1);
        assertThat(RealTimeCodec.readNack(Unpooled.wrappedBuffer(new byte[] {0, 0}), into)).isEqualTo(-1);
        assertThat(RealTimeCodec.readNack(Unpooled.wrappedBuffer(new byte[] {(byte) 0xFF, (byte) 0xFF, 0, 0}), into))
                .isEqualTo(-1);
    }

    @Test
    void dataFlagsMarkARetransmissionAndKeepTheMarkOnTheWay() {
        int resentHere = RealTimeCodec.FLAG_RETRANSMITTED;
        int resentBefore = RealTimeCodec.FLAG_RECOVERED;
        assertThat(RealTimeCodec.isRecovered(0)).isFalse();
        assertThat(RealTimeCodec.isRecovered(resentHere)).isTrue();
        assertThat(RealTimeCodec.isRecovered(resentBefore)).isTrue();
        assertThat(RealTimeCodec.forwardedFlags(0)).as("never resent").isZero();
        // The next link did not resend it: only the mark goes on.
        assertThat(RealTimeCodec.forwardedFlags(resentHere)).isEqualTo(resentBefore);
        assertThat(RealTimeCodec.forwardedFlags(resentBefore)).isEqualTo(resentBefore);
        assertThat(RealTimeCodec.forwardedFlags(resentHere | resentBefore)).isEqualTo(resentBefore);
        for (int flags = 0; flags <= 0xFFFF; flags++) {
            assertThat(RealTimeCodec.areFlagsKnown(flags)).as("flags %x", flags).isEqualTo(flags < 4);
        }
    }

    @Test
    void flowMonitorCountsRecoveredFirstCopiesOnly() {
        RealTimeFlowMonitor m = new RealTimeFlowMonitor(RealTimeConfig.defaults());
        assertThat(m.onPacket(0, 0, 10 * MS, false, false)).isTrue();
        assertThat(m.onPacket(2, 40 * MS, 50 * MS, false, false)).isTrue();
        assertThat(m.onPacket(1, 20 * MS, 70 * MS, false, true)).isTrue();
        assertThat(m.onPacket(1, 20 * MS, 75 * MS, false, true)).as("a duplicate").isFalse();
        assertThat(m.onPacket(3, 60 * MS, 70 * MS)).isTrue();
        RealTimeFlowStatistics s = m.snapshot("a", 1, 2);
        assertThat(s.received()).isEqualTo(4);
        assertThat(s.recovered()).isEqualTo(1);
        assertThat(s.duplicates()).isEqualTo(1);
        assertThat(s.lost()).isZero();
    }

    @Test
    void flowMonitorMeasuresDelayLossLatenessAndJitter() {
        RealTimeFlowMonitor m = new RealTimeFlowMonitor(RealTimeConfig.builder()
                .lateDeadline(Duration.ofMillis(50)).build());
        // Sent every 20 ms; transit 10 ms except packet 2 (lost) and packet 4 (60 ms: late).
        long[] transit = {10, 10, -1, 10, 60, 10};
        for (int i = 0; i < transit.length; i++) {
            if (transit[i] >= 0) {
                assertThat(m.onPacket(i, i * 20 * MS, (i * 20 + transit[i]) * MS)).isTrue();
            }
        }
        assertThat(m.onPacket(3, 60 * MS, 95 * MS)).as("a duplicate").isFalse();
        RealTimeFlowStatistics s = m.snapshot("a", 1, 2);
        assertThat(s.received()).isEqualTo(5);
        assertThat(s.lost()).isEqualTo(1);
        assertThat(s.late()).isEqualTo(1);
        assertThat(s.duplicates()).isEqualTo(1);
        assertThat(s.minDelayNanos()).isEqualTo(10 * MS);
        assertThat(s.maxDelayNanos()).isEqualTo(60 * MS);
        assertThat(s.meanDelayNanos()).isEqualTo(20.0 * MS);
        assertThat(s.p50DelayNanos()).isCloseTo(10 * MS, org.assertj.core.data.Percentage.withPercentage(2));
        // RFC 3550: J += (|D| - J)/16 over transit changes 0, 0, 50, 50 ms.
        double j = 0;
        for (double d : new double[] {0, 0, 50 * MS, 50 * MS}) {
            j += (d - j) / 16;
        }
        assertThat(s.jitterNanos()).isCloseTo(j, org.assertj.core.data.Offset.offset(1.0));
    }

    @Test
    void aFlowsFirstPacketOvertakenByLaterOnesIsNotCountedLost() {
        RealTimeFlowMonitor m = new RealTimeFlowMonitor(RealTimeConfig.defaults());
        assertThat(m.onPacket(5, 0, 10 * MS)).isTrue();
        assertThat(m.onPacket(6, 0, 11 * MS)).isTrue();
        assertThat(m.onPacket(4, 0, 40 * MS)).as("resent, arrives after its successors").isTrue();
        RealTimeFlowStatistics s = m.snapshot("a", 1, 2);
        assertThat(s.expected()).isEqualTo(3);
        assertThat(s.received()).isEqualTo(3);
        assertThat(s.lost()).isZero();
    }
}
