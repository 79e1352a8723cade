package net.hopwise.overlay.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** RFC 6298's timeout with Karn's rule: only a sample ends a backoff. */
class RetransmissionTimerTest {
    private static final long MS = 1_000_000L;

    private final RetransmissionTimer timer = new RetransmissionTimer(1000 * MS, 10 * MS, 2000 * MS);

    @Test
    void theTimeoutIsSrttPlusFourVariationsWithinItsBounds() {
        timer.onSample(40 * MS);
        assertThat(timer.srttNanos()).isEqualTo(40 * MS);
        assertThat(timer.timeoutNanos()).isEqualTo(40 * MS + 4 * 20 * MS);
        RetransmissionTimer fast = new RetransmissionTimer(1000 * MS, 10 * MS, 2000 * MS);
        fast.onSample(MS);
        assertThat(fast.timeoutNanos()).isEqualTo(10 * MS); // the floor
    }

    @Test
    void anExpiryDoublesTheTimeoutUntilASampleComes() {
        timer.onSample(20 * MS);
        for (int i = 0; i < 50; i++) {
            timer.onSample(20 * MS);
        }
        long base = timer.timeoutNanos();
        timer.backOff();
        assertThat(timer.timeoutNanos()).isEqualTo(2 * base);
        timer.onSample(-1); // an acknowledgement of a resent packet: no sample, the backoff stays
        assertThat(timer.timeoutNanos()).isEqualTo(2 * base);
        timer.onSample(20 * MS);
        assertThat(timer.timeoutNanos()).isEqualTo(base);
        assertThat(timer.backoff()).isEqualTo(1);
    }

    @Test
    void afterTwoExpiriesInARowTheNextSampleReplacesTheEstimate() {
        for (int i = 0; i < 50; i++) {
            timer.onSample(MS); // a 1 ms path...
        }
        timer.backOff();
        timer.backOff(); // ...that became much longer: the estimate is bogus
        timer.onSample(20 * MS);
        assertThat(timer.srttNanos()).isEqualTo(20 * MS); // not 1 ms + 19/8 ms
        assertThat(timer.timeoutNanos()).isEqualTo(20 * MS + 4 * 10 * MS);

        RetransmissionTimer once = new RetransmissionTimer(1000 * MS, 10 * MS, 2000 * MS);
        for (int i = 0; i < 50; i++) {
            once.onSample(MS);
        }
        once.backOff(); // a single expiry is an ordinary loss: the estimate only moves
        once.onSample(20 * MS);
        assertThat(once.srttNanos()).isEqualTo(MS + 19 * MS / 8);
    }

    @Test
    void aMarginInProportionToTheRoundTripOutlivesAPauseLongerThanTheGranularity() {
        RetransmissionTimer plain = new RetransmissionTimer(1000 * MS, 10 * MS, 2000 * MS);
        RetransmissionTimer margin = new RetransmissionTimer(1000 * MS, 10 * MS, 2000 * MS, 0.5);
        for (int i = 0; i < 100; i++) {
            plain.onSample(20 * MS); // a steady path: the variation decays to nothing
            margin.onSample(20 * MS);
        }
        assertThat(plain.timeoutNanos()).isEqualTo(22 * MS); // an acknowledgement 2 ms late already times out
        assertThat(margin.timeoutNanos()).isEqualTo(30 * MS); // one 10 ms late still does not
        RetransmissionTimer jittery = new RetransmissionTimer(1000 * MS, 10 * MS, 2000 * MS, 0.5);
        jittery.onSample(20 * MS); // rttvar 10 ms: 4 rttvar is the larger margin, as RFC 6298 has it
        assertThat(jittery.timeoutNanos()).isEqualTo(20 * MS + 40 * MS);
    }

    @Test
    void theMarginIsBounded() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RetransmissionTimer(MS, MS, MS, -0.1))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RetransmissionTimer(MS, MS, MS, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCeilingHoldsWhateverTheBackoff() {
        timer.onSample(500 * MS);
        for (int i = 0; i < 40; i++) {
            timer.backOff();
        }
        assertThat(timer.timeoutNanos()).isEqualTo(2000 * MS);
    }
}
