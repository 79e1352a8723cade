package net.hopwise.overlay.impair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ImpairmentConfigTest {
    @Test
    void noneImpairsNothingAndEqualsAnEmptyBuilder() {
        ImpairmentConfig none = ImpairmentConfig.none();
        assertThat(none.isNone()).isTrue();
        assertThat(none).isEqualTo(ImpairmentConfig.builder().build());
        assertThat(none.hashCode()).isEqualTo(ImpairmentConfig.builder().build().hashCode());
        assertThat(none.loss()).isEqualTo(LossModel.NONE);
        assertThat(none.queueLimitPackets()).isEqualTo(ImpairmentConfig.DEFAULT_QUEUE_LIMIT_PACKETS);
        assertThat(none).hasToString("ImpairmentConfig[none]");
    }

    @Test
    void settingsThatChangeNothingStayNone() {
        assertThat(ImpairmentConfig.builder()
                        .bernoulliLoss(0)
                        .gilbertElliottLoss(0, 0.5, 0, 1) // never leaves the good state
                        .queueLimitPackets(7) // no rate limit, so no queue
                        .reorderDelay(Duration.ofMillis(5)) // never chosen
                        .build()
                        .isNone())
                .isTrue();
    }

    @Test
    void anyImpairmentIsNotNone() {
        assertThat(ImpairmentConfig.builder().bernoulliLoss(0.01).build().isNone()).isFalse();
        assertThat(ImpairmentConfig.builder().delay(Duration.ofNanos(1)).build().isNone()).isFalse();
        assertThat(ImpairmentConfig.builder().jitter(Duration.ofNanos(1)).build().isNone()).isFalse();
        assertThat(ImpairmentConfig.builder().rateBitsPerSecond(1).build().isNone()).isFalse();
        assertThat(ImpairmentConfig.builder().reorder(0.1, Duration.ofMillis(1)).build().isNone()).isFalse();
        assertThat(ImpairmentConfig.builder().duplicateProbability(0.1).build().isNone()).isFalse();
    }

    @Test
    void toStringListsOnlyImpairmentsInForce() {
        ImpairmentConfig config = ImpairmentConfig.builder()
                .bernoulliLoss(0.07)
                .delay(Duration.ofMillis(50))
                .jitter(Duration.ofNanos(1500))
                .rateBitsPerSecond(1_500_000)
                .queueLimitPackets(20)
                .reorder(0.05, Duration.ofSeconds(2))
                .duplicateProbability(0.001)
                .build();
        assertThat(config).hasToString("ImpairmentConfig[loss bernoulli(7%), delay 50ms, jitter 1500ns,"
                + " rate 1.5 Mbit/s queue 20 packets, reorder 5% by 2s, duplicate 0.1%]");
        assertThat(ImpairmentConfig.builder().gilbertElliottLoss(0.01, 0.25, 0, 1).build())
                .hasToString("ImpairmentConfig[loss gilbert-elliott(good->bad 1%, bad->good 25%,"
                        + " loss good 0%, loss bad 100%)]");
    }

    @Test
    void toBuilderCopiesEveryField() {
        ImpairmentConfig config = ImpairmentConfig.builder()
                .gilbertElliottLoss(0.1, 0.2, 0.3, 0.4)
                .delay(Duration.ofMillis(1))
                .jitter(Duration.ofMillis(2))
                .rateBitsPerSecond(3)
                .queueLimitPackets(4)
                .reorder(0.5, Duration.ofMillis(6))
                .duplicateProbability(0.7)
                .build();
        assertThat(config.toBuilder().build()).isEqualTo(config).hasSameHashCodeAs(config);
        assertThat(config.toBuilder().queueLimitPackets(5).build()).isNotEqualTo(config);
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY})
    void probabilitiesOutsideTheUnitIntervalAreRejected(double p) {
        assertThatThrownBy(() -> ImpairmentConfig.builder().bernoulliLoss(p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("loss probability must be in [0, 1], got " + p);
        assertThatThrownBy(() -> ImpairmentConfig.builder().duplicateProbability(p))
                .hasMessage("duplicateProbability must be in [0, 1], got " + p);
        assertThatThrownBy(() -> ImpairmentConfig.builder().reorderProbability(p))
                .hasMessage("reorderProbability must be in [0, 1], got " + p);
        assertThatThrownBy(() -> ImpairmentConfig.builder().gilbertElliottLoss(0.1, 0.1, 0, p))
                .hasMessage("Gilbert-Elliott lossInBad must be in [0, 1], got " + p);
        assertThatThrownBy(() -> new LossModel.GilbertElliott(p, 0.1, 0, 1))
                .hasMessage("Gilbert-Elliott pGoodToBad must be in [0, 1], got " + p);
    }

    @Test
    void durationsMustBeNonNegativeAndBounded() {
        assertThatThrownBy(() -> ImpairmentConfig.builder().delay(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("delay must be >= 0, got PT-0.001S");
        assertThatThrownBy(() -> ImpairmentConfig.builder().jitter(Duration.ofNanos(-1)))
                .hasMessageStartingWith("jitter must be >= 0");
        assertThatThrownBy(() -> ImpairmentConfig.builder().reorderDelay(Duration.ofHours(2)))
                .hasMessage("reorderDelay must be at most PT1H, got PT2H");
        assertThat(ImpairmentConfig.builder().delay(ImpairmentConfig.MAX_DURATION).build().delay())
                .isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> ImpairmentConfig.builder().delay(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("delay");
    }

    @Test
    void rateAndQueueAreValidated() {
        assertThatThrownBy(() -> ImpairmentConfig.builder().rateBitsPerSecond(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rateBitsPerSecond must be >= 0 (0 = unlimited), got -1");
        assertThatThrownBy(() -> ImpairmentConfig.builder().queueLimitPackets(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queueLimitPackets must be >= 1, got 0");
    }

    @Test
    void reorderingNeedsAHold() {
        assertThatThrownBy(() -> ImpairmentConfig.builder().reorderProbability(0.1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("reorderProbability 0.1 needs a reorderDelay > 0");
    }

    @Test
    void stationaryLossRates() {
        assertThat(new LossModel.Bernoulli(0.2).stationaryLossRate()).isEqualTo(0.2);
        LossModel.GilbertElliott gilbert = new LossModel.GilbertElliott(0.01, 0.25, 0, 1);
        assertThat(gilbert.stationaryBadFraction()).isCloseTo(0.01 / 0.26, offset(1e-12));
        assertThat(gilbert.stationaryLossRate()).isCloseTo(0.01 / 0.26, offset(1e-12));
        LossModel.GilbertElliott elliott = new LossModel.GilbertElliott(0.1, 0.3, 0.02, 0.6);
        assertThat(elliott.stationaryLossRate())
                .isCloseTo(0.75 * 0.02 + 0.25 * 0.6, offset(1e-12));
        assertThat(new LossModel.GilbertElliott(0, 0, 0.3, 1).stationaryLossRate()).isEqualTo(0.3);
        assertThat(new LossModel.GilbertElliott(0.1, 0.1, 0, 0).isLossless()).isTrue();
        assertThat(new LossModel.GilbertElliott(0.1, 0.1, 0, 0.5).isLossless()).isFalse();
    }
}
