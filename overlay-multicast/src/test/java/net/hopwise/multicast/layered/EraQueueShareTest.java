package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
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
    private static final int PACKET = 1000;
    private static final LayerRates LAYERS = LayerRates.equal(40, 100_000);
    /** A 1000-byte packet's time at a 2 Mbit/s bottleneck: a pair not split reads the capacity. */
    private static final long PACKET_TIME = 8L * PACKET * SECOND / 2_000_000;
    private static final long BASE_DELAY = 10 * MS;

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

        ReceiverHarness large = joinedReading(capped, 1_000_000);
        assertThat(large.receiver.level()).isEqualTo(8);
        feed(large, queue, 3900 * MS);
        assertThat(large.decisions).filteredOn(d -> d.kind() == EraDecision.Kind.QUEUE_DROP).isNotEmpty()
                .allSatisfy(d -> assertThat(d.toLevel()).isLessThan(d.fromLevel()));
        assertThat(LAYERS.cumulative(large.receiver.level())).isLessThanOrEqualTo(600_000);

        ReceiverHarness small = joinedReading(capped, 400_000);
        assertThat(small.receiver.level()).isEqualTo(2);
        feed(small, queue, 3900 * MS);
        assertThat(small.decisions).noneMatch(d -> d.kind() == EraDecision.Kind.QUEUE_DROP);
        assertThat(small.receiver.level()).isEqualTo(2);

        ReceiverHarness uncapped = joinedReading(EraConfig.recommended(), 1_000_000);
        feed(uncapped, queue, 3900 * MS);
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

    /** Joined at 1 s; the first interval's pairs read {@code bps} and 2 Mbit/s, none lost; its boundary at 2 s sets the level. */
    private static ReceiverHarness joinedReading(EraConfig rules, double bps) {
        ReceiverHarness h = new ReceiverHarness(LAYERS, rules.toBuilder().packetBytes(PACKET).build(),
                RttEstimator.fixed(Duration.ofMillis(100))).joined();
        h.pair(0, 2_000_000);
        h.now += 300 * MS;
        h.pair(0, bps);
        h.now += 300 * MS;
        h.pair(0, 2_000_000);
        h.advanceTo(2 * SECOND);
        return h;
    }

    /**
     * The sender's pairs of the layers the receiver holds, in turn, at their cumulative rate from
     * {@code h.now}, each arriving after the base delay and the queue it met, a pair's second packet
     * one packet time of the bottleneck behind its first; none lost.
     */
    private static void feed(ReceiverHarness h, LongUnaryOperator queue, long sendUntil) {
        long arrival = h.now;
        int turn = 0;
        for (long sent = h.now; sent < sendUntil; ) {
            int level = h.receiver.level();
            int layer = turn++ % (level + 1);
            long first = Math.max(arrival, sent + BASE_DELAY + queue.applyAsLong(sent));
            for (int k = 0; k < 2; k++) {
                arrival = first + k * PACKET_TIME;
                h.advanceTo(arrival);
                h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, layer, h.psn[layer]++, sent / 1000,
                        k == 0, 2, 1), arrival);
            }
            sent += 2 * 8L * PACKET * SECOND / LAYERS.cumulative(level);
        }
        h.advanceTo(Math.max(h.now, sendUntil));
    }
}
