package net.hopwise.examples.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.multicast.layered.LayerRates;
import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;
import org.junit.jupiter.api.Test;

/**
 * PLM's baseline on virtual time, driven packet by packet: the stability drop, the estimate after a
 * check period, the loss rule and its blind period, the timeout, and the re-join 30 s after the base
 * layer is gone (the digest's section 2.4, from the ns-2 code).
 */
class PlmReceiverTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    /** Eight layers of 20 Kbit/s: levels 0..7 hold 20..160 Kbit/s. */
    private static final SessionAnnouncement ANNOUNCEMENT = new SessionAnnouncement(1, 1, 512, 1_000_000, 1, 0, 0, 0,
            LayerRates.equal(8, 20_000));

    /** The gap between a pair's two packets that reads {@code bps} (512-byte packets). */
    private static long gapFor(double bps) {
        return Math.round(8 * 512 * 1e9 / bps);
    }

    @Test
    void aPairBelowTheSubscribedRateDropsAtOnceToTheHighestLevelBelowIt() {
        Path p = new Path();
        p.start(3);
        p.pair(0, 2 * SECOND, gapFor(50_000));
        long at = 2 * SECOND + gapFor(50_000);
        // Strictly below 50 Kbit/s: 40 Kbit/s, level 1.
        assertThat(p.r.level()).isEqualTo(1);
        assertThat(p.joins.left).containsExactly(List.of(3L, at), List.of(2L, at));
    }

    @Test
    void afterACheckPeriodWithThreeSamplesTheLevelIsTheOneStrictlyBelowTheirMinimum() {
        Path p = new Path();
        p.start(0);
        // Samples above the subscribed rate: no stability drop. The first two within the period, the
        // third after it: the decision comes at the third, the minimum's level.
        p.pair(0, 200 * MS, gapFor(130_000));
        p.pair(0, 600 * MS, gapFor(100_000));
        assertThat(p.r.level()).isEqualTo(0);
        p.pair(0, 1100 * MS, gapFor(150_000));
        // 100 Kbit/s is level 4's cumulative rate exactly, so strictly below it is level 3.
        assertThat(p.r.level()).isEqualTo(3);
    }

    @Test
    void twoSamplesAreNotAnEstimateHoweverLongThePeriod() {
        Path p = new Path();
        p.start(0);
        p.pair(0, 200 * MS, gapFor(130_000));
        for (long t = 500 * MS; t < 5 * SECOND; t += 500 * MS) {
            p.next(0, t);
        }
        p.pair(0, 5 * SECOND, gapFor(130_000));
        assertThat(p.r.level()).isEqualTo(0);
        assertThat(p.joins.left).isEmpty();
    }

    @Test
    void withoutSamplesOverTenPercentLossOfAtLeastTenPacketsDropsOneLayerThenBlindsTheRuleForHalfASecond() {
        Path p = new Path();
        p.start(4);
        long decided = p.last;
        long t = decided + 30 * MS;
        long seq = 0;
        // Every second packet of layer 2 lost, never a pair's second packet: loss but no estimate.
        for (int i = 0; i < 40; i++, t += 30 * MS) {
            p.single(2, seq, t);
            seq += 2;
        }
        // The rule acts once a check period has passed since the last decision: one layer down.
        assertThat(p.r.level()).isEqualTo(3);
        long droppedAt = p.joins.left.get(0).get(1);
        assertThat(droppedAt).isBetween(decided + SECOND, decided + SECOND + 30 * MS);
        // The same loss goes on: the next drop comes a check period later, one layer at a time.
        for (int i = 0; i < 40; i++, t += 30 * MS) {
            p.single(2, seq, t);
            seq += 2;
        }
        assertThat(p.joins.left).hasSizeGreaterThan(1);
        assertThat(p.joins.left.get(1).get(0)).isEqualTo(3L);
        assertThat(p.joins.left.get(1).get(1) - droppedAt).isBetween(SECOND, SECOND + 30 * MS);
    }

    @Test
    void aPathThatCarriesNothingEmptiesTheSubscriptionAndTheBaseLayerIsJoinedAgainThirtySecondsLater() {
        Path p = new Path();
        p.start(2);
        long l = p.last;
        // No packet at all: one layer every 2 s without packets.
        p.runTimers(l + 7 * SECOND);
        assertThat(p.r.level()).isEqualTo(-1);
        assertThat(p.joins.left).containsExactly(List.of(2L, l + 2 * SECOND), List.of(1L, l + 4 * SECOND),
                List.of(0L, l + 6 * SECOND));
        assertThat(p.r.nextDeadlineNanos()).isEqualTo(l + 36 * SECOND);
        p.runTimers(l + 36 * SECOND - 1);
        assertThat(p.r.level()).isEqualTo(-1);
        p.runTimers(l + 36 * SECOND);
        assertThat(p.r.level()).isEqualTo(0);
        assertThat(p.joins.joined.get(p.joins.joined.size() - 1)).isEqualTo(List.of(0L, l + 36 * SECOND));
        // Still nothing: out again 2 s later, and back 30 s after that.
        p.runTimers(l + 38 * SECOND);
        assertThat(p.r.level()).isEqualTo(-1);
        assertThat(p.r.nextDeadlineNanos()).isEqualTo(l + 68 * SECOND);
        p.runTimers(l + 68 * SECOND);
        // The path is back: the base layer's pairs read 150 Kbit/s and the receiver climbs.
        long back = l + 68 * SECOND;
        p.pair(0, back + 300 * MS, gapFor(150_000));
        p.pair(0, back + 600 * MS, gapFor(150_000));
        p.pair(0, back + 1100 * MS, gapFor(150_000));
        assertThat(p.r.level()).isEqualTo(6);
    }

    @Test
    void aPairBelowTheBaseLayerLeavesEverythingAndTheReceiverComesBackAfterThirtySeconds() {
        Path p = new Path();
        p.start(1);
        long at = 2 * SECOND + gapFor(15_000);
        p.pair(0, 2 * SECOND, gapFor(15_000));
        assertThat(p.r.level()).isEqualTo(-1);
        assertThat(p.r.nextDeadlineNanos()).isEqualTo(at + 30 * SECOND);
        p.runTimers(at + 30 * SECOND);
        assertThat(p.r.level()).isEqualTo(0);
    }

    /** One receiver and the packets it is shown, with its timers run in order; times are absolute. */
    private static final class Path {
        final Joins joins = new Joins();
        final PlmReceiver r = new PlmReceiver(1, joins);
        private final long[] seq = new long[8];
        /** When the last packet was shown. */
        long last;

        /**
         * Joined at 0, then holding {@code level} by about 1.01 s: three pairs above every layer's rate
         * in the first check period take it to the top level, and a sample just above {@code level}'s
         * rate drops it there. The joins and leaves of the climb are forgotten.
         */
        void start(int level) {
            r.join(0);
            r.onAnnouncement(ANNOUNCEMENT, 0);
            assertThat(r.level()).isEqualTo(0);
            if (level > 0) {
                pair(0, 100 * MS, gapFor(1_000_000));
                pair(0, 200 * MS, gapFor(1_000_000));
                pair(0, SECOND, gapFor(1_000_000));
                assertThat(r.level()).isEqualTo(7);
                if (level < 7) {
                    pair(0, SECOND + 10 * MS, gapFor(ANNOUNCEMENT.layers().cumulative(level) + 1000));
                }
                assertThat(r.level()).isEqualTo(level);
            }
            joins.left.clear();
            joins.joined.clear();
        }

        void pair(int layer, long at, long gap) {
            long s = seq[layer];
            seq[layer] = s + 2;
            packet(new LayeredPacket(1, 1, layer, s, 0, true, 2, 0), at);
            packet(new LayeredPacket(1, 1, layer, s + 1, 0, false, 2, 0), at + gap);
        }

        /** The layer's next packet, not a pair's. */
        void next(int layer, long at) {
            packet(new LayeredPacket(1, 1, layer, seq[layer]++, 0, false, 2, 0), at);
        }

        void single(int layer, long sequence, long at) {
            packet(new LayeredPacket(1, 1, layer, sequence, 0, false, 2, 0), at);
        }

        private void packet(LayeredPacket packet, long at) {
            runTimers(at);
            r.onPacket(packet, at);
            last = at;
        }

        void runTimers(long until) {
            long next;
            while ((next = r.nextDeadlineNanos()) <= until) {
                r.onTimer(next);
            }
        }
    }

    private static final class Joins implements LayerSubscriber {
        final List<List<Long>> joined = new ArrayList<>();
        final List<List<Long>> left = new ArrayList<>();

        @Override
        public void join(int layer, long nowNanos) {
            joined.add(List.of((long) layer, nowNanos));
        }

        @Override
        public void leave(int layer, long nowNanos) {
            left.add(List.of((long) layer, nowNanos));
        }
    }
}
