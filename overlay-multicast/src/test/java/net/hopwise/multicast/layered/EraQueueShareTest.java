package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The cap on a session's share of the standing queue ({@link EraConfig#queueOwnPackets()}), on
 * virtual time: sessions behind one FIFO bottleneck read the same queue, too slow in growing for the
 * queue rule's rise, and the cap takes from the large session and not from the small one.
 */
class EraQueueShareTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    /**
     * From 2 s the queue grows by 2 ms a 100 ms (a tenth of the queue rule's rise) to 20 ms and
     * stands there: a bottleneck whose sessions together take a little more than it carries. At
     * 900 Kbit/s, 20 ms of queue is 2.25 of the session's 1000-byte packets, over the cap of 1.5; at
     * 300 Kbit/s it is 0.75. With the cap the large session comes down to at most 1.5 packets'
     * worth of the queue, 600 Kbit/s; the small one keeps its level, as both do without the cap.
     */
    @Test
    void theCapTakesFromTheLargeSessionAndNotFromTheSmallOne() {
        LongUnaryOperator queue = sent -> sent < 2 * SECOND ? 0 : Math.min(20 * MS, (sent - 2 * SECOND) / 50);
        EraConfig capped = EraConfig.recommended().toBuilder().queueOwnPackets(1.5).build();

        ReceiverHarness large = ReceiverHarness.joinedLive(capped, 1_000_000);
        assertThat(large.receiver.level()).isEqualTo(8);
        large.feedLive(queue, 3900 * MS);
        assertThat(large.decisions).filteredOn(d -> d.kind() == EraDecision.Kind.QUEUE_DROP).isNotEmpty()
                .allSatisfy(d -> assertThat(d.toLevel()).isLessThan(d.fromLevel()));
        assertThat(ReceiverHarness.LIVE_LAYERS.cumulative(large.receiver.level())).isLessThanOrEqualTo(600_000);

        ReceiverHarness small = ReceiverHarness.joinedLive(capped, 400_000);
        assertThat(small.receiver.level()).isEqualTo(2);
        small.feedLive(queue, 3900 * MS);
        assertThat(small.decisions).noneMatch(d -> d.kind() == EraDecision.Kind.QUEUE_DROP);
        assertThat(small.receiver.level()).isEqualTo(2);

        ReceiverHarness uncapped = ReceiverHarness.joinedLive(EraConfig.recommended(), 1_000_000);
        uncapped.feedLive(queue, 3900 * MS);
        assertThat(uncapped.decisions).as("the queue rule alone: no rise fast enough")
                .noneMatch(d -> d.kind() == EraDecision.Kind.QUEUE_DROP);
        assertThat(uncapped.receiver.level()).isEqualTo(8);
    }

    @Test
    void theCapNeedsTheQueueRule() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EraConfig.defaults().toBuilder().queueOwnPackets(1.5).build())
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EraConfig.recommended().toBuilder().queueOwnPackets(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
