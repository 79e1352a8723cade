package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The equation fed loss events a second ({@link EraConfig.Builder#lossEventsPerSecond}): an
 * open-loop session beside TCP meets every overflow of the shared queue whatever it holds, so two
 * receivers that meet the same overflows must get the same TCP rate whatever their own rates.
 * Virtual time: packets carry their send times.
 */
class LossEventsPerSecondTest {
    private static final long MS = 1_000_000L;
    private static final long RTT = 150 * MS;

    /** One layer of pairs every {@code spacingMs}; the first pair sent in each whole second is lost whole. */
    private static LossHistory feed(long spacingMs) {
        LossHistory h = new LossHistory(1, () -> 1000, 2, true, true);
        long seq = 0;
        long lostSecond = 0;
        for (long t = 0; t < 20_000 * MS; t += spacingMs * MS, seq += 2) {
            if (t / (1000 * MS) > lostSecond) {
                lostSecond = t / (1000 * MS);
                continue;
            }
            h.onPacket(0, seq, t, 2, RTT);
            h.onPacket(0, seq + 1, t, 2, RTT);
        }
        return h;
    }

    @Test
    void theHistoryCountsTheSameEventsASecondAtAnyRateWhereItsRatePerPacketFallsWithTheRate() {
        LossHistory slow = feed(40);
        LossHistory fast = feed(10);
        assertThat(slow.events()).isEqualTo(fast.events()).isEqualTo(19);
        // Per packet: four times the packets between the same events.
        assertThat(slow.rate() / fast.rate()).isCloseTo(4, within(0.3));
        assertThat(slow.eventsPerSecond()).isCloseTo(1.0, within(0.05));
        assertThat(fast.eventsPerSecond()).isCloseTo(1.0, within(0.05));
    }

    @Test
    void theRateForAnEventRateIsTheEquationsLargestFixedPoint() {
        double bits = 8.0 * 512;
        double x = TcpFriendlyRate.forEventRate(1.08, 0.169, 512, 4) / bits;
        // X = f(E / X): a flow sending X packets a second and meeting E events a second gets X.
        assertThat(TcpFriendlyRate.padhye(1.08 / x, 0.169, 512, 4) / bits).isCloseTo(x, within(x * 1e-3));
        // Above it the equation gives less than X all the way to a thousand times more.
        for (double y = x * 1.05; y < x * 1000; y *= 1.05) {
            assertThat(TcpFriendlyRate.padhye(1.08 / y, 0.169, 512, 4) / bits).isLessThan(y);
        }
        // More events, less rate; none, no ceiling.
        assertThat(TcpFriendlyRate.forEventRate(0.5, 0.169, 512, 4)).isGreaterThan(x * bits);
        assertThat(TcpFriendlyRate.forEventRate(1.5, 0.169, 512, 4)).isLessThan(x * bits).isPositive();
        assertThat(TcpFriendlyRate.forEventRate(0, 0.169, 512, 4)).isInfinite();
    }

    /**
     * A receiver on {@code layers} equal layers of 50 Kbit/s, joined at 1 s on pairs that read
     * 1 Mbit/s (so the pair estimate never binds), then 20 s of pairs on the layers it holds with the
     * first pair of each second (send time) lost whole: one overflow a second. The TCP rate of its
     * last decision.
     */
    private static double tcpRateMeetingOneOverflowASecond(int layers, EraConfig rules) {
        ReceiverHarness h = new ReceiverHarness(LayerRates.equal(layers, 50_000), rules,
                RttEstimator.fixed(Duration.ofNanos(RTT))).joined();
        for (int i = 0; i < 3; i++) {
            h.pair(0, 1_000_000);
        }
        h.advanceTo(2_000 * MS);
        assertThat(h.receiver.level()).isEqualTo(layers - 1);
        long spacing = 2L * 512 * 8 * 1_000_000_000L / 50_000;
        long lostSecond = 2;
        int k = 0;
        for (long t = 2_000 * MS; t < 22_000 * MS; t += spacing / layers, k++) {
            h.advanceTo(t);
            int layer = k % layers;
            if (layer > h.receiver.level()) {
                continue;
            }
            long sent = t - 20 * MS;
            if (sent / (1000 * MS) > lostSecond) {
                lostSecond = sent / (1000 * MS);
                h.lose(layer, 2);
                continue;
            }
            long psn = h.psn[layer];
            h.psn[layer] += 2;
            h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, layer, psn, sent / 1000, true, 2, 1), t);
            h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, layer, psn + 1, sent / 1000, false, 2, 1),
                    t + 409_600L);
        }
        return h.last(EraDecision.Kind.INTERVAL).tcpRate();
    }

    @Test
    void receiversMeetingTheSameOverflowsGetTheSameTcpRateWhateverTheyHold() {
        // Without the queue rule, which reads the pairs' queue and not the loss.
        EraConfig episodes = EraConfig.friendly().toBuilder().queueRise(Duration.ZERO).pacedLoss(false).build();
        EraConfig perSecond = episodes.toBuilder().lossEventsPerSecond(true).build();
        double expected = TcpFriendlyRate.forEventRate(1.0, 0.15, 512, 4);

        double low = tcpRateMeetingOneOverflowASecond(2, perSecond);
        double high = tcpRateMeetingOneOverflowASecond(8, perSecond);
        assertThat(low).isCloseTo(expected, within(expected * 0.1));
        assertThat(high).isCloseTo(expected, within(expected * 0.1));

        // Per packet received, the one holding less sees the higher loss-event rate and gets less:
        // the session that backs off is told to back off further.
        double lowPerPacket = tcpRateMeetingOneOverflowASecond(2, episodes);
        double highPerPacket = tcpRateMeetingOneOverflowASecond(8, episodes);
        assertThat(highPerPacket / lowPerPacket).isGreaterThan(1.5);
    }

    @Test
    void aBoundedEpisodeEndsAfterItsRoundTripsWhereAnUnboundedOneChainsEveryLossIntoOne() {
        // A queue that stays full: the second packet of every pair lost, pairs every 50 ms, for 10 s.
        LossHistory unbounded = new LossHistory(1, () -> 1000, 3.5, true, true);
        LossHistory bounded = new LossHistory(1, () -> 1000, 3.5, true, true, 6);
        for (LossHistory h : new LossHistory[] {unbounded, bounded}) {
            long seq = 0;
            for (long t = 0; t < 10_000 * MS; t += 50 * MS, seq += 2) {
                h.onPacket(0, seq, t, 2, RTT);
            }
        }
        assertThat(unbounded.events()).isOne();
        // One event every six round trips (900 ms) of send time.
        assertThat(bounded.events()).isBetween(10L, 12L);
        assertThat(bounded.eventsPerSecond()).isCloseTo(1 / 0.9, within(0.1));
    }

    @Test
    void theOptionNeedsTheHistoryAndNoPresetHasIt() {
        assertThatThrownBy(() -> EraConfig.builder().lossEventsPerSecond(true).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lossHistory");
        assertThat(EraConfig.recommended().lossEventsPerSecond()).isFalse();
        assertThat(EraConfig.recommended().lossEpisodeMaxRtts()).isZero();
        assertThatThrownBy(() -> EraConfig.builder().lossEpisodeMaxRtts(6).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lossHistory");
        assertThatThrownBy(() -> EraConfig.builder().lossHistory(true).lossEpisodeMaxRtts(-1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(EraConfig.friendly().toBuilder().lossEventsPerSecond(true).build().toBuilder().build()
                .lossEventsPerSecond()).isTrue();
    }
}
