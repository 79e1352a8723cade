package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link EraConfig#recommended()} adds to ERA_FRIENDLY besides the drain: the sender's jitter cap and the loss-free headroom, on virtual time. */
class EraRecommendedRulesTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long CAP = 8_192_000;

    /**
     * 2% of a 10 Kbit/s layer's spacing of 512-byte pairs is 16.4 ms, twice the gap between two
     * layers' bunches at a 1 Mbit/s bottleneck: bunches of several layers then arrive together. The
     * cap bounds every bunch's offset by 8.192 ms, and on the thesis's 20 Kbit/s layers, whose 2%
     * are exactly that, every packet leaves at the same instant as without it.
     */
    @Test
    void theJitterCapBoundsSlowLayersOffsetsAndLeavesTheThesissLayersAsTheyWere() {
        EraConfig capped = EraConfig.builder().bunchJitterCap(Duration.ofNanos(CAP)).build();
        long uncappedWorst = worstOffset(EraConfig.defaults(), 10_000);
        long cappedWorst = worstOffset(capped, 10_000);
        assertThat(uncappedWorst).as("2%% of 819.2 ms").isGreaterThan(12_000_000).isLessThanOrEqualTo(16_384_001);
        assertThat(cappedWorst).isLessThanOrEqualTo(CAP + 1).isGreaterThan(6_000_000);

        assertThat(sent(capped, 20_000)).isEqualTo(sent(EraConfig.defaults(), 20_000)).hasSizeGreaterThan(400);
        assertThat(EraConfig.defaults().bunchJitterCapNanos()).isZero();
    }

    @Test
    void withHeadroomALossFreeTargetLeavesThatFractionOfTheEstimateFree() {
        // Pairs read 1 Mbit/s: the thesis's strict rule takes 980 Kbit/s (98%), 2.5% of headroom 960.
        assertThat(levelAfterPairs(EraConfig.fair(), LayerRates.equal(100, 20_000), 1_000_000)).isEqualTo(48);
        EraConfig headroom = EraConfig.fair().toBuilder().headroom(0.025).build();
        assertThat(levelAfterPairs(headroom, LayerRates.equal(100, 20_000), 1_000_000)).isEqualTo(47);
        // On 10 Kbit/s layers (a 20 Kbit/s base) it takes 970 of 1000, and on 300 Kbit/s still 290.
        LayerRates fine = fine();
        assertThat(fine.cumulative(levelAfterPairs(EraConfig.fair(), fine, 1_000_000))).isEqualTo(990_000);
        assertThat(fine.cumulative(levelAfterPairs(headroom, fine, 1_000_000))).isEqualTo(970_000);
        assertThat(fine.cumulative(levelAfterPairs(headroom, fine, 300_000))).isEqualTo(290_000);
    }

    @Test
    void withLossInTheWindowTheShareThePairsReadIsTakenWhole() {
        // A pair split by one packet of another flow reads the share left; beside TCP that share is
        // what the session is owed, so the headroom is for a loss-free path only.
        EraConfig headroom = EraConfig.fair().toBuilder().headroom(0.025).build();
        ReceiverHarness h = new ReceiverHarness(LayerRates.equal(100, 20_000), headroom, RttEstimator.fixed(Duration.ofMillis(50)))
                .joined();
        for (int i = 0; i < 3; i++) {
            h.pair(0, 400_000);
        }
        h.advanceTo(2 * SECOND);
        assertThat(h.receiver.level()).as("loss-free: 2.5%% under 400 Kbit/s, strictly below").isEqualTo(18);
        for (int i = 0; i < 20; i++) {
            if (i == 10) {
                h.lose(0, 1);
            }
            h.pair(0, 400_000);
            h.now += 20_000_000;
        }
        h.advanceTo(3 * SECOND);
        EraDecision d = h.last(EraDecision.Kind.INTERVAL);
        assertThat(d.lossRate()).isPositive();
        assertThat(d.tcpRate()).isGreaterThan(400_000);
        assertThat(h.receiver.level()).as("the share whole: 400 Kbit/s").isEqualTo(19);
    }

    @Test
    void theRecommendedRulesAreTheFriendlyOnesPlusTheDrainTheJitterCapTheHeadroomAndTheExitIntervals() {
        EraConfig recommended = EraConfig.recommended();
        assertThat(recommended.queueDrain()).isTrue();
        assertThat(recommended.queueDrainShare()).isFalse();
        assertThat(recommended.bunchJitterCapNanos()).isEqualTo(CAP);
        assertThat(recommended.headroom()).isEqualTo(0.025);
        assertThat(recommended.exitIntervals()).isEqualTo(5);
        assertThat(recommended.toBuilder().queueDrain(false).bunchJitterCap(Duration.ZERO).headroom(0).exitIntervals(0).build())
                .usingRecursiveComparison().isEqualTo(EraConfig.friendly());
        assertThat(EraConfig.friendly().headroom()).isZero();
        assertThat(EraConfig.friendly().bunchJitterCapNanos()).isZero();
    }

    private static LayerRates fine() {
        long[] rates = new long[199];
        java.util.Arrays.fill(rates, 10_000);
        rates[0] = 20_000;
        return LayerRates.of(rates);
    }

    /** Joined, three pairs reading {@code bps} on the base layer, the first boundary: the level it took. */
    private static int levelAfterPairs(EraConfig config, LayerRates layers, long bps) {
        ReceiverHarness h = new ReceiverHarness(layers, config, RttEstimator.fixed(Duration.ofMillis(50))).joined();
        for (int i = 0; i < 3; i++) {
            h.pair(0, bps);
        }
        h.advanceTo(2 * SECOND);
        return h.receiver.level();
    }

    /** The furthest any first packet of layer 0's bunches sits from its grid point over a minute. */
    private static long worstOffset(EraConfig config, long layerBps) {
        List<long[]> firsts = firstsOfLayer0(config, layerBps);
        double spacing = 2 * 8.0 * 512 * SECOND / layerBps;
        long worst = 0;
        for (int k = 0; k < firsts.size(); k++) {
            worst = Math.max(worst, Math.abs(firsts.get(k)[0] - Math.round(SECOND + k * spacing)));
        }
        return worst;
    }

    private static List<long[]> firstsOfLayer0(EraConfig config, long layerBps) {
        List<long[]> out = new ArrayList<>();
        EraSender sender = new EraSender(1, 1, LayerRates.equal(3, layerBps), config, 0, SECOND, new LayeredOutput() {
            @Override
            public void data(LayeredPacket header, long nowNanos) {
                if (header.layer() == 0 && header.firstOfBunch()) {
                    out.add(new long[] {nowNanos});
                }
            }

            @Override
            public void announce(SessionAnnouncement announcement, long nowNanos) {
            }
        }, 42);
        while (sender.nextDeadlineNanos() <= 61 * SECOND) {
            sender.onTimer(sender.nextDeadlineNanos());
        }
        return out;
    }

    /** Every packet a sender of three layers sends in a minute: instant, layer, sequence. */
    private static List<String> sent(EraConfig config, long layerBps) {
        List<String> out = new ArrayList<>();
        EraSender sender = new EraSender(1, 1, LayerRates.equal(3, layerBps), config, 0, SECOND, new LayeredOutput() {
            @Override
            public void data(LayeredPacket header, long nowNanos) {
                out.add(nowNanos + ":" + header.layer() + ":" + header.sequence());
            }

            @Override
            public void announce(SessionAnnouncement announcement, long nowNanos) {
            }
        }, 42);
        while (sender.nextDeadlineNanos() <= 61 * SECOND) {
            sender.onTimer(sender.nextDeadlineNanos());
        }
        return out;
    }
}
