package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The rules {@link EraConfig#fair()} changes from the thesis's ERA, each on virtual time. */
class EraFairRulesTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void withLossTheLayersReachTheShareTheMinimumSampleReadsNotOneLayerBelowIt() {
        // A pair split by one TCP packet on 400 Kbit/s reads exactly 200 Kbit/s, the share left.
        assertThat(levelSharingAt200k(EraConfig.thesis())).isEqualTo(8);
        assertThat(levelSharingAt200k(EraConfig.thesis().toBuilder().strictWithLoss(false).build())).isEqualTo(9);
        assertThat(levelSharingAt200k(EraConfig.fair())).isEqualTo(9);
    }

    @Test
    void withoutLossTheFairRulesStayStrictlyBelowTheCapacity() {
        // An idle 400 Kbit/s bottleneck: 20 layers would fill it exactly and build a queue from jitter alone.
        ReceiverHarness h = harness(EraConfig.fair());
        for (int i = 0; i < 3; i++) {
            h.pair(0, 400_000);
        }
        h.advanceTo(2 * SECOND);
        assertThat(h.last(EraDecision.Kind.INTERVAL).lossRate()).isZero();
        assertThat(h.receiver.level()).isEqualTo(18);
    }

    @Test
    void aJoinerDecidesAtItsFirstBoundaryOnOneSample() {
        // One base-layer pair before the first boundary: the thesis's receiver holds for want of three.
        ReceiverHarness thesis = harness(EraConfig.thesis());
        thesis.pair(0, 400_000);
        thesis.advanceTo(2 * SECOND);
        assertThat(thesis.last(EraDecision.Kind.HOLD)).isNotNull();
        assertThat(thesis.receiver.level()).isZero();

        ReceiverHarness fair = harness(EraConfig.fair());
        fair.pair(0, 400_000);
        fair.advanceTo(2 * SECOND);
        assertThat(fair.receiver.level()).isEqualTo(18);
        // Later decisions need the usual three: two samples and no loss hold.
        fair.pair(0, 400_000);
        fair.pair(0, 400_000);
        fair.advanceTo(3 * SECOND);
        assertThat(fair.last(EraDecision.Kind.HOLD).nowNanos()).isEqualTo(3 * SECOND);
        assertThat(fair.receiver.level()).isEqualTo(18);
    }

    @Test
    void theFairRulesChangeOnlyTheReceiverSoBothKindsShareASession() {
        EraConfig fair = EraConfig.fair();
        EraConfig thesis = EraConfig.thesis();
        assertThat(fair.lossEvents()).isTrue();
        assertThat(fair.estimateIntervals()).isEqualTo(3);
        assertThat(fair.strictWithLoss()).isFalse();
        assertThat(fair.startSamples()).isEqualTo(1);
        assertThat(thesis.startSamples()).isEqualTo(thesis.minSamples()).isEqualTo(3);
        assertThat(thesis.strictWithLoss()).isTrue();
        assertThat(thesis.lossEvents()).isFalse();
        assertThat(thesis.estimateIntervals()).isEqualTo(1);
        assertThat(fair.packetBytes()).isEqualTo(thesis.packetBytes());
        assertThat(fair.bunchLength()).isEqualTo(thesis.bunchLength());
        assertThat(fair.adaptationIntervalNanos()).isEqualTo(thesis.adaptationIntervalNanos());
        assertThat(fair.bunchJitter()).isEqualTo(thesis.bunchJitter());
        assertThat(fair.announceEveryIntervals()).isEqualTo(thesis.announceEveryIntervals());
    }

    /** At 19 layers, then pairs reading 200 Kbit/s with one packet lost: the level of the next decision. */
    private static int levelSharingAt200k(EraConfig config) {
        ReceiverHarness h = harness(config);
        for (int i = 0; i < 3; i++) {
            h.pair(0, 400_000);
        }
        h.advanceTo(2 * SECOND);
        assertThat(h.receiver.level()).isEqualTo(18);
        for (int i = 0; i < 30; i++) {
            int layer = i % 9;
            if (i == 12) {
                // Layer 3 has had a packet since the join, so this gap is loss.
                h.lose(layer, 1);
            }
            h.pair(layer, 200_000);
        }
        // The first 200 Kbit/s pair dropped the level at once and moved the decision to 4 s.
        h.advanceTo(4 * SECOND + 1_000_000);
        EraDecision d = h.last(EraDecision.Kind.INTERVAL);
        assertThat(d.nowNanos()).isEqualTo(4 * SECOND);
        assertThat(d.lossRate()).isPositive();
        assertThat(d.bunchEstimate()).isCloseTo(200_000, within(1.0));
        assertThat(d.tcpRate()).isGreaterThan(200_000);
        return h.receiver.level();
    }

    private static ReceiverHarness harness(EraConfig config) {
        return new ReceiverHarness(LayerRates.equal(100, 20_000), config, RttEstimator.fixed(Duration.ofMillis(50))).joined();
    }
}
