package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** TFRC's receiver rules: the rise cap {@link EraConfig#prompt()} has, and the loss history of {@link EraConfig#tfrc()}. */
class EraTfrcRulesTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    /** A 20 Kbit/s layer's pairs of 512 bytes: 409.6 ms apart. */
    private static final long SPACING = 409_600_000L;

    @Test
    void afterALossARiseReachesAtMostTwiceTheRateReceived() {
        // At 2 layers on a path whose pairs read 50 Kbit/s, one pair lost at 3.1 s; from 5 s the
        // pairs read 2 Mbit/s (a FIFO where no cross traffic splits them: the capacity, not a share).
        ReceiverHarness capped = lossThenCapacity(EraConfig.prompt());
        List<EraDecision> rises = rises(capped);
        assertThat(rises).isNotEmpty();
        for (EraDecision d : rises) {
            // What arrived in an interval is the level's rate give or take a pair per layer.
            assertThat(capped.layers.cumulative(d.toLevel())).isLessThanOrEqualTo(
                    (long) (2.5 * capped.layers.cumulative(d.fromLevel())));
        }
        assertThat(capped.receiver.level()).isGreaterThan(3);

        // Without the cap (ERA_PROMPT as it was) the first rise goes from 2 layers to tens, and once
        // the window has emptied, to every layer the pairs allow.
        ReceiverHarness uncapped = lossThenCapacity(EraConfig.prompt().toBuilder().riseCap(0).build());
        assertThat(rises(uncapped).get(0).toLevel()).isGreaterThan(20);
        assertThat(uncapped.receiver.level()).isEqualTo(98);
    }

    @Test
    void aRiseTheCapHoldsAtTheCurrentRateKeepsTheLevel() {
        // After the loss and the climb, only three pairs of the base layer arrive in each interval
        // (the other layers' bunches late), all reading 2 Mbit/s and none lost: the pairs ask for a
        // rise, the cap holds it at twice the 25 Kbit/s received, under the level's rate. A cap on
        // a rise must not drop a layer, as the strict choice at exactly the level's rate would (and
        // on the base layer, leave the session).
        ReceiverHarness h = lossThenCapacity(EraConfig.prompt());
        long start = h.receiver.nextBoundaryNanos();
        h.advanceTo(start + MS);
        int level = h.receiver.level();
        assertThat(h.layers.cumulative(level)).isGreaterThan(60_000);
        for (int interval = 0; interval < 3; interval++) {
            long boundary = h.receiver.nextBoundaryNanos();
            for (int k = 0; k < 3; k++) {
                h.advanceTo(h.now + 200 * MS);
                h.pair(0, 2_000_000);
            }
            h.advanceTo(boundary + MS);
        }
        List<EraDecision> capped = h.decisions.stream()
                .filter(d -> d.kind() == EraDecision.Kind.INTERVAL && d.nowNanos() > start + MS)
                .toList();
        assertThat(capped).hasSize(3).allSatisfy(d -> {
            assertThat(d.bunchEstimate()).isGreaterThan(h.layers.cumulative(level));
            assertThat(d.target()).isEqualTo((double) h.layers.cumulative(level));
            assertThat(d.toLevel()).isEqualTo(level);
        });
    }

    @Test
    void theEquationDoesNotForgetALossWhenTheWindowPassesIt() {
        ReceiverHarness window = lossThenCapacity(EraConfig.fair());
        EraDecision late = window.last(EraDecision.Kind.INTERVAL);
        // Five seconds after the loss the window is empty: no ceiling, every layer the pairs allow.
        assertThat(late.lossRate()).isZero();
        assertThat(window.receiver.level()).isEqualTo(98);

        ReceiverHarness history = lossThenCapacity(EraConfig.fair().toBuilder().lossHistory(true).build());
        EraDecision kept = history.last(EraDecision.Kind.INTERVAL);
        assertThat(kept.lossRate()).isPositive();
        assertThat(kept.tcpRate()).isLessThan(2_000_000);
        assertThat(history.receiver.level()).isLessThan(98);
    }

    @Test
    void lossesSentWithinTheEquationsRoundTripAreOneEvent() {
        // Pairs lost on two layers, sent 30 ms apart: one event within 50 ms; 110 ms apart: two.
        assertThat(eventsOfTwoLosses(30 * MS)).isOne();
        assertThat(eventsOfTwoLosses(110 * MS)).isEqualTo(2);
    }

    @Test
    void theTfrcPresetIsThePromptOneWithTheHistoryAndTheCap() {
        EraConfig tfrc = EraConfig.tfrc();
        assertThat(tfrc.lossHistory()).isTrue();
        assertThat(tfrc.toBuilder().build().lossHistory()).isTrue();
        assertThat(tfrc.riseCap()).isEqualTo(2.0);
        assertThat(EraConfig.prompt().riseCap()).isEqualTo(2.0);
        assertThat(EraConfig.prompt().toBuilder().build().riseCap()).isEqualTo(2.0);
        assertThat(tfrc.queueRiseNanos()).isEqualTo(EraConfig.prompt().queueRiseNanos());
        assertThat(tfrc.estimateIntervals()).isEqualTo(EraConfig.prompt().estimateIntervals());
        assertThat(EraConfig.prompt().lossHistory()).isFalse();
        for (EraConfig old : new EraConfig[] {EraConfig.thesis(), EraConfig.fair()}) {
            assertThat(old.lossHistory()).isFalse();
            assertThat(old.riseCap()).isZero();
        }
    }

    private static List<EraDecision> rises(ReceiverHarness h) {
        return h.decisions.stream()
                .filter(d -> d.kind() == EraDecision.Kind.INTERVAL && d.nowNanos() > 5 * SECOND && d.toLevel() > d.fromLevel())
                .toList();
    }

    /** Joined at 1 s; 2 layers from 2 s on pairs of 50 Kbit/s, a pair lost at 3.1 s, pairs of 2 Mbit/s from 5 s to 9.5 s. */
    private static ReceiverHarness lossThenCapacity(EraConfig config) {
        ReceiverHarness h = new ReceiverHarness(LayerRates.equal(100, 20_000), config,
                RttEstimator.fixed(Duration.ofMillis(50))).joined();
        h.pair(0, 50_000);
        h.advanceTo(2 * SECOND);
        assertThat(h.receiver.level()).isEqualTo(1);
        feed(h, 2 * SECOND, 5 * SECOND, 50_000, 3100 * MS);
        assertThat(h.receiver.level()).isEqualTo(1);
        feed(h, 5 * SECOND, 9_500 * MS, 2_000_000, Long.MAX_VALUE);
        return h;
    }

    /**
     * Every held layer's pairs, each layer 409.6 ms apart and offset by a hundredth of that per
     * layer, reading {@code bps}; the first pair due at or after {@code lossAt} is lost whole.
     */
    private static void feed(ReceiverHarness h, long from, long until, double bps, long lossAt) {
        for (long k = 0; ; k++) {
            for (int j = 0; j < h.layers.count(); j++) {
                long t = from + k * SPACING + j * SPACING / 100;
                if (t >= until) {
                    return;
                }
                h.advanceTo(Math.max(t, h.now));
                if (j > h.receiver.level()) {
                    continue;
                }
                if (h.now >= lossAt) {
                    h.lose(j, 2);
                    lossAt = Long.MAX_VALUE;
                } else {
                    h.pair(j, bps);
                }
            }
        }
    }

    /** At 2 layers, one pair lost on each, layer 1's bunches {@code apart} after layer 0's. */
    private static long eventsOfTwoLosses(long apart) {
        // Without the queue rule, which would leave layers as the queue grows.
        ReceiverHarness h = new ReceiverHarness(LayerRates.equal(100, 20_000),
                EraConfig.tfrc().toBuilder().queueRise(Duration.ZERO).build(), RttEstimator.fixed(Duration.ofMillis(50))).joined();
        h.pair(0, 50_000);
        h.advanceTo(2 * SECOND);
        assertThat(h.receiver.level()).isEqualTo(1);
        // Sent from 2 s: both layers' pairs every 409.6 ms, 20 ms on the way.
        for (int k = 0; k < 6; k++) {
            for (int j = 0; j < 2; j++) {
                long sent = 2 * SECOND + k * SPACING + j * apart;
                long arrival = sent + 20 * MS;
                boolean lost = k == 2;
                for (int i = 0; i < 2; i++) {
                    long psn = h.psn[j]++;
                    if (!lost) {
                        h.advanceTo(Math.max(h.now, arrival + i * 82 * MS));
                        h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, j, psn, sent / 1000, i == 0, 2, 1),
                                h.now);
                    }
                }
            }
        }
        return h.receiver.lossEvents();
    }
}
