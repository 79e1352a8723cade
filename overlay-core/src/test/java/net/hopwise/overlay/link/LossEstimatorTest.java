package net.hopwise.overlay.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The Spines loss rule on hand-made sequences. */
class LossEstimatorTest {
    private final LossEstimator e = new LossEstimator();

    private void receive(long from, long toInclusive) {
        for (long s = from; s <= toInclusive; s++) {
            e.onPacket(s);
        }
    }

    @Test
    void zeroUntilTheFirstLoss() {
        receive(0, 999);
        assertThat(e.lossRate()).isZero();
        assertThat(e.received()).isEqualTo(1000);
    }

    @Test
    void aGapIsDeclaredOnceEnoughHigherNumbersArrived() {
        receive(0, 9);
        receive(11, 10 + LossEstimator.DECLARE_AFTER - 1);
        assertThat(e.lost()).isZero();
        assertThat(e.onPacket(10 + LossEstimator.DECLARE_AFTER)).isTrue();
        assertThat(e.lost()).isEqualTo(1);
        // 1 lost against 10 before it and 8 received after it.
        assertThat(e.lossRate()).isEqualTo(1.0 / (1 + 10 + 8));
    }

    @Test
    void aBurstIsOneEvent() {
        receive(0, 9);
        receive(15, 40);
        assertThat(e.lost()).isEqualTo(5);
        assertThat(e.eventsInHistory()).isEqualTo(1);
        assertThat(e.lossRate()).isEqualTo(5.0 / (5 + 10 + 26));
    }

    @Test
    void aBurstDeclaredPieceByPieceIsStillOneEvent() {
        receive(0, 9);
        // 10..12 missing; 13 arrives, then numbers one by one push each gap over the threshold.
        receive(13, 30);
        assertThat(e.lost()).isEqualTo(3);
        assertThat(e.eventsInHistory()).isEqualTo(1);
    }

    @Test
    void aLateArrivalWithinTheThresholdNeverCounts() {
        receive(0, 9);
        e.onPacket(12);
        e.onPacket(11);
        e.onPacket(10);
        receive(13, 100);
        assertThat(e.lost()).isZero();
        assertThat(e.lossRate()).isZero();
        assertThat(e.eventsInHistory()).isZero();
    }

    @Test
    void aLateArrivalAfterDeclarationIsUncountedAndItsEventRemoved() {
        receive(0, 9);
        receive(11, 40);
        assertThat(e.lost()).isEqualTo(1);
        assertThat(e.onPacket(10)).isTrue();
        assertThat(e.lost()).isZero();
        assertThat(e.lossRate()).isZero();
        assertThat(e.eventsInHistory()).isZero();
        assertThat(e.received()).isEqualTo(41);
        assertThat(e.historyConsistent()).isTrue();
    }

    @Test
    void fillingAnOlderEventMergesItIntoTheNext() {
        receive(0, 9);
        receive(11, 29);
        receive(31, 60);
        assertThat(e.eventsInHistory()).isEqualTo(2);
        e.onPacket(10);
        assertThat(e.eventsInHistory()).isEqualTo(1);
        assertThat(e.historyConsistent()).isTrue();
        // 1 lost among 61 numbers, all of them accounted for.
        assertThat(e.lossRate()).isEqualTo(1.0 / 61);
    }

    @Test
    void duplicatesAreIgnored() {
        receive(0, 9);
        receive(0, 9);
        e.onPacket(9);
        assertThat(e.received()).isEqualTo(10);
        assertThat(e.duplicates()).isEqualTo(11);
        assertThat(e.lossRate()).isZero();
    }

    @Test
    void historyKeepsTheLastFiftyEventsAndDecaysOnceLossStops() {
        // 60 events of "9 received, 1 lost": 10%.
        for (int i = 0; i < 60; i++) {
            receive(i * 10L, i * 10L + 8);
        }
        receive(600, 600 + LossEstimator.DECLARE_AFTER);
        assertThat(e.eventsInHistory()).isEqualTo(LossEstimator.HISTORY);
        assertThat(e.lossRate()).isCloseTo(0.1, within(0.005));

        // Then 50 events of "99 received, 1 lost": 1%, the old events forgotten.
        long base = 700;
        for (int i = 0; i < 50; i++) {
            receive(base + i * 100L, base + i * 100L + 98);
        }
        receive(base + 5000, base + 5000 + LossEstimator.DECLARE_AFTER);
        assertThat(e.lossRate()).isCloseTo(0.01, within(0.001));

        // No more loss: the current run alone pulls the estimate down.
        double before = e.lossRate();
        receive(base + 5009, base + 15_000);
        assertThat(e.lossRate()).isLessThan(before / 2);
    }

    @Test
    void sequenceNumbersWrapAtTwoToTheThirtyTwo() {
        receive(0xFFFF_FFF0L, 0xFFFF_FFFDL);
        // 0xFFFFFFFE, 0xFFFFFFFF and 0 are lost across the wrap.
        receive(1, 20);
        assertThat(e.lost()).isEqualTo(3);
        assertThat(e.eventsInHistory()).isEqualTo(1);
        assertThat(e.discontinuous()).isZero();
    }

    @Test
    void aSingleVeryLatePacketDoesNotMoveTheBase() {
        receive(1000, 1100);
        e.onPacket(10);
        receive(1101, 1200);
        assertThat(e.lost()).isZero();
        assertThat(e.discontinuous()).isEqualTo(1);
    }

    @Test
    void aRestartedNumberingIsAdoptedWithoutCountingLoss() {
        receive(5000, 6000);
        receive(0, 100);
        assertThat(e.lost()).isZero();
        assertThat(e.lossRate()).isZero();
        assertThat(e.discontinuous()).isEqualTo(LossEstimator.CONFIRM_RUN);
        // Counting carries on in the new numbering.
        receive(102, 200);
        assertThat(e.lost()).isEqualTo(1);
    }

    @Test
    void aHugeForwardJumpIsADiscontinuityNotLoss() {
        receive(0, 100);
        receive(100 + LossEstimator.MAX_GAP + 1000, 100 + LossEstimator.MAX_GAP + 1100);
        assertThat(e.lost()).isZero();
    }

    @Test
    void aLargeGapWithinMaxGapIsLoss() {
        receive(0, 100);
        receive(10_101, 10_200);
        assertThat(e.lost()).isEqualTo(10_000);
        assertThat(e.eventsInHistory()).isEqualTo(1);
    }

    @Test
    void resyncStartsANewNumberingButKeepsTheHistory() {
        receive(0, 9);
        receive(11, 40);
        e.resync();
        receive(500, 600);
        assertThat(e.lost()).isEqualTo(1);
        assertThat(e.eventsInHistory()).isEqualTo(1);
        e.reset();
        assertThat(e.lossRate()).isZero();
        assertThat(e.eventsInHistory()).isZero();
    }
}
