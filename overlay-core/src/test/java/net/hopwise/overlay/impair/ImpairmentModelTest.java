package net.hopwise.overlay.impair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statistical and exact checks of the model. Every run is seeded, so a tolerance that passes once
 * passes always; tolerances are still honest (3 sigma) so a broken model cannot hide inside them.
 */
class ImpairmentModelTest {
    private static final long T0 = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final int N = 100_000;

    private final long[] out = new long[2];

    @Test
    void noImpairmentPassesEveryPacketAtOnce() {
        ImpairmentModel model = new ImpairmentModel(ImpairmentConfig.none(), 1);
        for (int i = 0; i < 1000; i++) {
            assertThat(model.admit(1200, T0 + i, out)).isEqualTo(1);
            assertThat(out[0]).isEqualTo(T0 + i);
        }
        assertThat(model.counters()).isEqualTo(new ImpairmentCounters(1000, 0, 0, 0, 0));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.001, 0.01, 0.1, 0.3, 0.5, 0.9})
    void bernoulliLossRateIsWithinThreeSigma(double p) {
        ImpairmentModel model = new ImpairmentModel(ImpairmentConfig.builder().bernoulliLoss(p).build(), 42);
        int lost = 0;
        for (int i = 0; i < N; i++) {
            if (model.admit(100, T0 + i, out) == 0) {
                lost++;
            }
        }
        double sigma = Math.sqrt(p * (1 - p) / N);
        assertThat((double) lost / N).isCloseTo(p, within(3 * sigma));
        assertThat(model.counters().droppedByLoss()).isEqualTo(lost);
    }

    @Test
    void bernoulliExtremesAreExact() {
        ImpairmentModel never = new ImpairmentModel(ImpairmentConfig.builder().bernoulliLoss(0).build(), 3);
        ImpairmentModel always = new ImpairmentModel(ImpairmentConfig.builder().bernoulliLoss(1).build(), 3);
        for (int i = 0; i < 10_000; i++) {
            assertThat(never.admit(1, T0, out)).isEqualTo(1);
            assertThat(always.admit(1, T0, out)).isZero();
        }
    }

    @Test
    void gilbertLossMatchesStationaryRateAndComesInBursts() {
        double pGoodToBad = 0.01;
        double pBadToGood = 0.25;
        ImpairmentConfig config =
                ImpairmentConfig.builder().gilbertElliottLoss(pGoodToBad, pBadToGood, 0, 1).build();
        ImpairmentModel model = new ImpairmentModel(config, 7);
        int packets = 200_000;
        int lost = 0;
        int bursts = 0;
        int run = 0;
        List<Integer> burstLengths = new ArrayList<>();
        for (int i = 0; i < packets; i++) {
            if (model.admit(100, T0 + i, out) == 0) {
                lost++;
                run++;
            } else if (run > 0) {
                burstLengths.add(run);
                bursts++;
                run = 0;
            }
        }
        double stationary = pGoodToBad / (pGoodToBad + pBadToGood);
        assertThat(config.loss().stationaryLossRate()).isCloseTo(stationary, within(1e-12));
        // Successive states are correlated (second eigenvalue 1 - p - r), which widens the variance of
        // the long-run mean by (1 + lambda) / (1 - lambda) over independent draws.
        double lambda = 1 - pGoodToBad - pBadToGood;
        double sigma = Math.sqrt(stationary * (1 - stationary) * (1 + lambda) / (1 - lambda) / packets);
        assertThat((double) lost / packets).isCloseTo(stationary, within(3 * sigma));

        // Bad-state stays are geometric with mean 1/r and variance (1-r)/r^2.
        double meanBurst = burstLengths.stream().mapToInt(Integer::intValue).average().orElseThrow();
        double burstSigma = Math.sqrt((1 - pBadToGood) / (pBadToGood * pBadToGood) / bursts);
        assertThat(meanBurst).isCloseTo(1 / pBadToGood, within(3 * burstSigma));
        // Bernoulli loss at the same rate would give bursts of mean 1/(1-0.038), barely above 1.
        assertThat(meanBurst).isGreaterThan(3.0);
    }

    @Test
    void gilbertElliottWithLossInBothStatesMatchesStationaryRate() {
        LossModel.GilbertElliott loss = new LossModel.GilbertElliott(0.05, 0.2, 0.02, 0.5);
        ImpairmentModel model = new ImpairmentModel(ImpairmentConfig.builder().loss(loss).build(), 11);
        int packets = 200_000;
        int lost = 0;
        for (int i = 0; i < packets; i++) {
            if (model.admit(100, T0 + i, out) == 0) {
                lost++;
            }
        }
        double expected = loss.stationaryLossRate(); // 0.8 * 0.02 + 0.2 * 0.5 = 0.116
        // Only the state-driven part of the variance, (lossInBad - lossInGood)^2 pi (1 - pi), is
        // correlated, and it cannot exceed the whole m (1 - m): so this sigma is an upper bound.
        double lambda = 1 - 0.05 - 0.2;
        double sigma = Math.sqrt(expected * (1 - expected) * (1 + lambda) / (1 - lambda) / packets);
        assertThat((double) lost / packets).isCloseTo(expected, within(3 * sigma));
    }

    @Test
    void fixedDelayIsExact() {
        ImpairmentModel model =
                new ImpairmentModel(ImpairmentConfig.builder().delay(Duration.ofMillis(40)).build(), 1);
        for (int i = 0; i < 1000; i++) {
            long now = T0 + i * 123_457L;
            assertThat(model.admit(500, now, out)).isEqualTo(1);
            assertThat(out[0]).isEqualTo(now + 40 * MS);
        }
    }

    @Test
    void jitterStaysWithinBoundsKeepsOrderAndUsesItsRange() {
        long delay = 20 * MS;
        long jitter = 10 * MS;
        ImpairmentModel model = new ImpairmentModel(ImpairmentConfig.builder()
                .delay(Duration.ofNanos(delay))
                .jitter(Duration.ofNanos(jitter))
                .build(), 5);
        long previous = Long.MIN_VALUE;
        long minExtra = Long.MAX_VALUE;
        long maxExtra = Long.MIN_VALUE;
        double sumExtraSparse = 0;
        for (int i = 0; i < N; i++) {
            // Dense arrivals (0.1 ms apart) so jitter would reorder without the FIFO rule.
            long now = T0 + i * (MS / 10);
            assertThat(model.admit(100, now, out)).isEqualTo(1);
            assertThat(out[0]).isBetween(now + delay, now + delay + jitter).isGreaterThanOrEqualTo(previous);
            previous = out[0];
        }
        ImpairmentModel sparse = new ImpairmentModel(model.config(), 6);
        for (int i = 0; i < N; i++) {
            // Arrivals further apart than the jitter: FIFO never binds, the raw distribution shows.
            long now = T0 + i * (jitter + MS);
            sparse.admit(100, now, out);
            long extra = out[0] - now - delay;
            minExtra = Math.min(minExtra, extra);
            maxExtra = Math.max(maxExtra, extra);
            sumExtraSparse += extra;
        }
        assertThat(minExtra).isBetween(0L, jitter / 100);
        assertThat(maxExtra).isBetween(jitter - jitter / 100, jitter);
        double uniformSigma = jitter / Math.sqrt(12) / Math.sqrt(N);
        assertThat(sumExtraSparse / N).isCloseTo(jitter / 2.0, within(3 * uniformSigma));
    }

    @Test
    void rateLimitSpacesBackToBackPacketsBySerialisationTime() {
        // 1250 bytes at 1 Mbit/s = 10 ms on the wire.
        ImpairmentModel model = new ImpairmentModel(ImpairmentConfig.builder()
                .rateBitsPerSecond(1_000_000)
                .delay(Duration.ofMillis(5))
                .build(), 1);
        for (int i = 0; i < 50; i++) {
            assertThat(model.admit(1250, T0, out)).isEqualTo(1);
            assertThat(out[0]).isEqualTo(T0 + (i + 1) * 10 * MS + 5 * MS);
        }
        // Once the link is idle again a packet only pays its own serialisation.
        long later = T0 + 10_000 * MS;
        model.admit(125, later, out);
        assertThat(out[0]).isEqualTo(later + MS + 5 * MS);
    }

    @Test
    void rateLimitedQueueDropsBeyondItsLimitAndDrains() {
        ImpairmentModel model = new ImpairmentModel(ImpairmentConfig.builder()
                .rateBitsPerSecond(1_000_000)
                .queueLimitPackets(10)
                .build(), 1);
        int passed = 0;
        for (int i = 0; i < 25; i++) {
            passed += model.admit(1250, T0, out);
        }
        assertThat(passed).isEqualTo(10);
        assertThat(model.counters().droppedByQueue()).isEqualTo(15);
        assertThat(model.queuedPackets(T0)).isEqualTo(10);
        // After 3 serialisation times 3 packets have left and 3 places are free again.
        assertThat(model.queuedPackets(T0 + 30 * MS)).isEqualTo(7);
        int more = 0;
        for (int i = 0; i < 5; i++) {
            more += model.admit(1250, T0 + 30 * MS, out);
        }
        assertThat(more).isEqualTo(3);
        // Queued behind the 10 originals: the last leaves after 13 serialisation times.
        assertThat(model.queuedPackets(T0 + 130 * MS)).isZero();
    }

    @Test
    void serialisationTimeRoundsUpAndNeverOverflows() {
        assertThat(ImpairmentModel.serialisationNanos(1250, 1_000_000)).isEqualTo(10 * MS);
        assertThat(ImpairmentModel.serialisationNanos(1, 3)).isEqualTo(2_666_666_667L);
        assertThat(ImpairmentModel.serialisationNanos(0, 3)).isZero();
        assertThat(ImpairmentModel.serialisationNanos(1500, 100_000_000_000L)).isEqualTo(120);
        assertThat(ImpairmentModel.serialisationNanos(1500, Long.MAX_VALUE)).isEqualTo(1);
        assertThat(ImpairmentModel.serialisationNanos(Integer.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(ImpairmentModel.serialisationNanos(Integer.MAX_VALUE, 1_000_000_000_000L))
                .isEqualTo(17_179_870L); // 17_179_869_176 bits at 1 Tbit/s is 17_179_869.176 ns
    }

    @Test
    void reorderingHoldsBackAboutTheConfiguredShareAndLetsLaterPacketsOvertake() {
        double p = 0.05;
        ImpairmentModel model = new ImpairmentModel(ImpairmentConfig.builder()
                .delay(Duration.ofMillis(10))
                .reorder(p, Duration.ofMillis(5))
                .build(), 9);
        long[] departures = new long[N];
        for (int i = 0; i < N; i++) {
            model.admit(100, T0 + i * MS, out);
            departures[i] = out[0];
        }
        long reordered = model.counters().reordered();
        assertThat((double) reordered / N).isCloseTo(p, within(3 * Math.sqrt(p * (1 - p) / N)));
        int overtaken = 0;
        for (int i = 0; i + 1 < N; i++) {
            if (departures[i + 1] < departures[i]) {
                overtaken++;
            }
        }
        // A held packet is overtaken by the next one unless that one is held too.
        assertThat(overtaken).isGreaterThan((int) (reordered * (1 - p) * 0.9));
        for (int i = 0; i < N; i++) {
            assertThat(departures[i] - (T0 + i * MS)).isIn(10 * MS, 15 * MS);
        }
    }

    @Test
    void duplicationHappensAtAboutTheConfiguredRate() {
        double p = 0.02;
        ImpairmentModel model = new ImpairmentModel(
                ImpairmentConfig.builder().duplicateProbability(p).delay(Duration.ofMillis(1)).build(), 13);
        int twice = 0;
        for (int i = 0; i < N; i++) {
            int count = model.admit(100, T0 + i, out);
            if (count == 2) {
                twice++;
                assertThat(out[1]).isEqualTo(out[0]);
            } else {
                assertThat(count).isEqualTo(1);
            }
        }
        assertThat((double) twice / N).isCloseTo(p, within(3 * Math.sqrt(p * (1 - p) / N)));
        assertThat(model.counters().duplicated()).isEqualTo(twice);
    }

    @Test
    void sameSeedSameDecisionsDifferentSeedDifferentDecisions() {
        ImpairmentConfig config = everything();
        long[] a = run(new ImpairmentModel(config, 99), 5000);
        long[] b = run(new ImpairmentModel(config, 99), 5000);
        long[] c = run(new ImpairmentModel(config, 100), 5000);
        assertThat(a).isEqualTo(b);
        assertThat(a).isNotEqualTo(c);
    }

    @Test
    void eachImpairmentDrawsFromItsOwnStream() {
        ImpairmentConfig lossOnly = ImpairmentConfig.builder().bernoulliLoss(0.2).build();
        ImpairmentConfig lossAndMore = lossOnly.toBuilder()
                .jitter(Duration.ofMillis(3))
                .duplicateProbability(0.3)
                .reorder(0.1, Duration.ofMillis(1))
                .build();
        ImpairmentModel plain = new ImpairmentModel(lossOnly, 17);
        ImpairmentModel busy = new ImpairmentModel(lossAndMore, 17);
        for (int i = 0; i < 10_000; i++) {
            boolean plainLost = plain.admit(100, T0 + i * MS, out) == 0;
            boolean busyLost = busy.admit(100, T0 + i * MS, out) == 0;
            assertThat(busyLost).as("packet %d", i).isEqualTo(plainLost);
        }
    }

    @Test
    void shorterDelayMidStreamDoesNotReorder() {
        ImpairmentModel model =
                new ImpairmentModel(ImpairmentConfig.builder().delay(Duration.ofMillis(100)).build(), 1);
        model.admit(100, T0, out);
        long first = out[0];
        model.setConfig(ImpairmentConfig.builder().delay(Duration.ofMillis(10)).build());
        model.admit(100, T0 + MS, out);
        assertThat(out[0]).isEqualTo(first);
        model.admit(100, T0 + 200 * MS, out);
        assertThat(out[0]).isEqualTo(T0 + 210 * MS);
        assertThat(model.config().delay()).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void queuedPacketsCountAgainstASmallerLimitAfterReconfiguration() {
        ImpairmentConfig deep = ImpairmentConfig.builder().rateBitsPerSecond(1_000_000).queueLimitPackets(50).build();
        ImpairmentModel model = new ImpairmentModel(deep, 1);
        for (int i = 0; i < 20; i++) {
            model.admit(1250, T0, out);
        }
        model.setConfig(deep.toBuilder().queueLimitPackets(5).build());
        assertThat(model.admit(1250, T0, out)).isZero();
        // 15 of the 20 have left by then, leaving 5: still full.
        assertThat(model.admit(1250, T0 + 150 * MS, out)).isZero();
        assertThat(model.admit(1250, T0 + 160 * MS, out)).isEqualTo(1);
        // Behind the 20th packet, which finishes at 200 ms.
        assertThat(out[0]).isEqualTo(T0 + 210 * MS);
        // Dropping the rate limit leaves no queue: the next packet leaves at once.
        model.setConfig(ImpairmentConfig.none());
        assertThat(model.admit(1250, T0 + 161 * MS, out)).isEqualTo(1);
        assertThat(out[0]).isEqualTo(T0 + 210 * MS); // still not before the one ahead of it
    }

    @Test
    void gilbertStateCarriesOverBetweenGilbertConfigs() {
        // Enter the bad state for sure, then swap to a chain that can never leave it.
        ImpairmentModel model =
                new ImpairmentModel(ImpairmentConfig.builder().gilbertElliottLoss(1, 0, 0, 1).build(), 1);
        assertThat(model.admit(100, T0, out)).isZero();
        model.setConfig(ImpairmentConfig.builder().gilbertElliottLoss(0, 0, 0, 1).build());
        assertThat(model.admit(100, T0, out)).isZero();
        // Through another loss model and back: starts good, where this chain stays.
        model.setConfig(ImpairmentConfig.builder().bernoulliLoss(0).build());
        model.setConfig(ImpairmentConfig.builder().gilbertElliottLoss(0, 0, 0, 1).build());
        assertThat(model.admit(100, T0, out)).isEqualTo(1);
    }

    @Test
    void badArgumentsAreRejected() {
        ImpairmentModel model = new ImpairmentModel(ImpairmentConfig.none(), 1);
        assertThatThrownBy(() -> model.admit(-1, T0, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sizeBytes must be >= 0, got -1");
        assertThatThrownBy(() -> model.admit(1, T0, new long[1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("departures needs room for 2 instants, has 1");
        assertThat(model.counters()).isEqualTo(ImpairmentCounters.ZERO);
    }

    static ImpairmentConfig everything() {
        return ImpairmentConfig.builder()
                .gilbertElliottLoss(0.02, 0.3, 0.01, 0.7)
                .delay(Duration.ofMillis(15))
                .jitter(Duration.ofMillis(4))
                .rateBitsPerSecond(2_000_000)
                .queueLimitPackets(30)
                .reorder(0.03, Duration.ofMillis(6))
                .duplicateProbability(0.02)
                .build();
    }

    /** Decisions as one array: per packet the count then both slots, so any difference shows. */
    private long[] run(ImpairmentModel model, int packets) {
        long[] trace = new long[packets * 3];
        for (int i = 0; i < packets; i++) {
            Arrays.fill(out, -1);
            trace[3 * i] = model.admit(200 + i % 1000, T0 + i * 700_000L, out);
            trace[3 * i + 1] = out[0];
            trace[3 * i + 2] = out[1];
        }
        return trace;
    }
}
