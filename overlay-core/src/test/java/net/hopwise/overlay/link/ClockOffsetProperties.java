package net.hopwise.overlay.link;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * The clock offset read from the hellos' time stamps: exact on one clock, within half the
 * asymmetry across two, and taken from the least queued sample of the window.
 */
class ClockOffsetProperties {
    private static final long MS = 1_000_000;

    /** One exchange: we send at t1 (ours), the peer holds it, answers, and the answer arrives. */
    private static void exchange(ClockOffset c, long peerAhead, long t1, long forward, long hold, long back) {
        long t2 = t1 + forward + peerAhead;
        long t3 = t2 + hold;
        long t4 = t3 - peerAhead + back;
        c.onSample(t1, hold, t3, t4);
    }

    @Property
    void twoMachinesClocksAreReadWithinHalfTheAsymmetry(
            @ForAll @LongRange(min = -1_000_000_000_000_000L, max = 1_000_000_000_000_000L) long peerAhead,
            @ForAll @LongRange(min = 0, max = 300 * MS) long forward, @ForAll @LongRange(min = 0, max = 300 * MS) long back,
            @ForAll @LongRange(min = 0, max = 2_000 * MS) long hold, @ForAll @LongRange(min = 0, max = 1L << 60) long t1) {
        // Clocks further apart than the delays, as monotonic clocks counting from two boots are.
        if (Math.abs(peerAhead) <= Math.max(forward, back)) {
            return;
        }
        ClockOffset c = new ClockOffset();
        exchange(c, peerAhead, t1, forward, hold, back);
        assertThat(Math.abs(c.offsetNanos() - peerAhead)).isLessThanOrEqualTo(Math.abs(forward - back) / 2 + 2);
    }

    @Property
    void oneClockIsReadAsExactlyOneWhateverTheAsymmetry(@ForAll @LongRange(min = 0, max = 300 * MS) long forward,
            @ForAll @LongRange(min = 0, max = 300 * MS) long back, @ForAll @LongRange(min = 0, max = 2_000 * MS) long hold,
            @ForAll @LongRange(min = 0, max = 1L << 60) long t1) {
        ClockOffset c = new ClockOffset();
        exchange(c, 0, t1, forward, hold, back);
        assertThat(c.offsetNanos()).isZero();
    }

    @Property
    void theLeastQueuedSampleOfTheWindowDecides(@ForAll @IntRange(min = 0, max = 7) int quietAt,
            @ForAll @LongRange(min = 1, max = 100 * MS) long queued) {
        long peerAhead = 86_400_000 * MS;
        ClockOffset c = new ClockOffset();
        for (int i = 0; i < ClockOffset.WINDOW; i++) {
            // Every sample but one waits in a queue on the way out only, which skews its estimate.
            long forward = i == quietAt ? 10 * MS : 10 * MS + queued;
            exchange(c, peerAhead, 1_000 * MS * (i + 1), forward, MS, 10 * MS);
        }
        assertThat(c.offsetNanos()).isEqualTo(peerAhead);
    }

    @Test
    void anOldQuietSampleLeavesTheWindow() {
        long peerAhead = -3_600_000 * MS;
        ClockOffset c = new ClockOffset();
        exchange(c, peerAhead, 1_000 * MS, 5 * MS, MS, 5 * MS);
        assertThat(c.offsetNanos()).isEqualTo(peerAhead);
        // The peer's clock runs 1 ms further ahead from here on (it was reset, say): after a window of
        // queued samples the quiet old one is gone and the new offset shows, within the asymmetry.
        for (int i = 0; i < ClockOffset.WINDOW; i++) {
            exchange(c, peerAhead + MS, 2_000 * MS * (i + 1), 7 * MS, MS, 5 * MS);
        }
        assertThat(c.offsetNanos()).isEqualTo(peerAhead + MS + MS);
    }

    @Test
    void nothingIsKnownBeforeASampleOrAfterAReset() {
        ClockOffset c = new ClockOffset();
        assertThat(c.measured()).isFalse();
        assertThat(c.offsetNanos()).isZero();
        exchange(c, 42 * MS * 1000, 0, 5 * MS, 0, 5 * MS);
        assertThat(c.measured()).isTrue();
        assertThat(c.offsetNanos()).isEqualTo(42 * MS * 1000);
        c.reset();
        assertThat(c.measured()).isFalse();
        assertThat(c.offsetNanos()).isZero();
    }

    @Test
    void aNegativeHoldOrRoundTripIsNoSample() {
        ClockOffset c = new ClockOffset();
        c.onSample(100, -1, 200, 300);
        c.onSample(100, 500, 200, 300);
        assertThat(c.measured()).isFalse();
    }
}
