package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The node's stall notice, on virtual time: what counts as a stall, and how often it is said. */
class LoopStallsTest {
    private static final long MS = 1_000_000L;
    private static final long MINUTE = 60_000 * MS;
    private static final long T0 = -5_000 * MS; // nanoTime may be negative: only differences count

    private final LoopStalls stalls = new LoopStalls(100 * MS, 500 * MS, MINUTE);

    @Test
    void aTimerUpToAHelloIntervalLateIsOnTime() {
        assertThat(stalls.onTimer(T0, T0)).isFalse();
        assertThat(stalls.onTimer(T0, T0 + 100 * MS)).isFalse();
        assertThat(stalls.count()).isZero();
        assertThat(stalls.longestNanos()).isZero();
    }

    @Test
    void laterIsAStallCountedAndSaidFromHalfTheDeadIntervalAtMostOnceAMinute() {
        assertThat(stalls.onTimer(T0, T0 + 300 * MS)).as("short of half the dead interval: counted only").isFalse();
        assertThat(stalls.count()).isEqualTo(1);
        assertThat(stalls.onTimer(T0, T0 + 1_500 * MS)).as("the first long stall is said").isTrue();
        assertThat(stalls.lastNanos()).isEqualTo(1_500 * MS);
        long t = T0 + 10_000 * MS;
        assertThat(stalls.onTimer(t, t + 900 * MS)).as("another within the minute is only counted").isFalse();
        assertThat(stalls.count()).isEqualTo(3);
        assertThat(stalls.lastNanos()).isEqualTo(900 * MS);
        assertThat(stalls.longestNanos()).isEqualTo(1_500 * MS);
        t = T0 + 1_500 * MS + MINUTE;
        assertThat(stalls.onTimer(t - 500 * MS, t)).as("a minute after the last said").isTrue();
        assertThat(stalls.count()).isEqualTo(4);
    }

    @Test
    void aNodeCountsItsStallsInAMeterOfItsOwn() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (OverlayNode node = OverlayNode.start(NodeConfig.builder("stalls").loopback(0).meterRegistry(registry)
                .build())) {
            FunctionCounter meter = registry.find("hopwise.node.loop.stalls").tag("node", "stalls").functionCounter();
            assertThat(meter).isNotNull();
            assertThat(meter.count()).isEqualTo(node.loopStalls());
        }
        assertThat(registry.find("hopwise.node.loop.stalls").functionCounter()).as("removed with the node").isNull();
    }

    @Test
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> new LoopStalls(0, MS, MINUTE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LoopStalls(2 * MS, MS, MINUTE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LoopStalls(MS, MS, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
