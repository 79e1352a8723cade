package net.hopwise.examples.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class BottleneckTest {
    @Test
    void theQueueHoldsTheAskedTimeAtTheRate() {
        Bottleneck b = Bottleneck.of(20, 50, Bottleneck.DEFAULT_BURST_BYTES);
        // 20 Mbit/s is 2.5 MB/s; 50 ms of it is 125 000 bytes.
        assertThat(b.limitBytes()).isEqualTo(125_000);
        assertThat(b.bufferMillis()).isCloseTo(50, within(1e-9));
        assertThat(b.limitFrames()).isEqualTo(82);
        assertThat(b.tcArguments()).containsExactly("rate", "20000000bit", "burst", "15140", "limit", "125000");
    }

    @Test
    void aTinyBufferStillHoldsOneFrame() {
        assertThat(Bottleneck.of(1, 0.1, Bottleneck.FRAME_BYTES).limitBytes()).isEqualTo(Bottleneck.FRAME_BYTES);
    }

    @Test
    void refusesABucketSmallerThanAFrame() {
        assertThatThrownBy(() -> Bottleneck.of(20, 50, 1000)).hasMessageContaining("burst");
    }

    @Test
    void printsRatesPlainly() {
        assertThat(Bottleneck.plain(20.0)).isEqualTo("20");
        assertThat(Bottleneck.plain(12.5)).isEqualTo("12.5");
    }
}
