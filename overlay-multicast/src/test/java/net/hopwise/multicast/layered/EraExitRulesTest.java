package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * When a receiver leaves its session ({@link EraConfig#exitIntervals()}), on virtual time: the live
 * benchmark's topology (40 layers of 100 Kbit/s, 1000-byte packets, a 2 Mbit/s bottleneck that
 * kernel TCP Reno fills before the session joins), where ERA_RECOMMENDED left the session.
 */
class EraExitRulesTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final int PACKET = 1000;
    private static final LayerRates LAYERS = ReceiverHarness.LIVE_LAYERS;

    /**
     * The simulator of the live topology, TCP first, seed 5 (`LayeredTcpSimulation ... --first tcp
     * --rules recommended --rtt forward`), whose start two of six traced live runs repeated: the
     * session joins beside TCP, its first interval has pairs reading half the capacity (a TCP segment
     * between) and the capacity, none of its own packets lost yet, and it takes 9 layers. TCP's
     * refill of the queue a cut emptied then grows it 30 ms within 100 ms of send time; with no loss
     * in the session's window the queue rule reads it as a step: a drop to R / 2 (450 Kbit/s) and the
     * drain, 2 layers; 0.4 s later the next refill, a drop from 2 layers to R / 2 = 100 Kbit/s,
     * strictly below which no layer fits: out of the session for the 30 s back-off. The same queue,
     * with the base layer kept, leaves the receiver on it.
     */
    @Test
    void tcpsRefillsOfTheQueueNoLongerTakeTheBaseLayer() {
        LongUnaryOperator queue = refills(2150 * MS, 2550 * MS);

        ReceiverHarness exits = joinedAtNineLayers(EraConfig.recommended().toBuilder().exitIntervals(0).build());
        exits.feedLive(queue, 3 * SECOND);
        List<EraDecision> drops = exits.decisions.stream().filter(d -> d.kind() == EraDecision.Kind.QUEUE_DROP).toList();
        assertThat(drops).extracting(EraDecision::fromLevel, EraDecision::toLevel).startsWith(
                org.assertj.core.groups.Tuple.tuple(8, 3), org.assertj.core.groups.Tuple.tuple(3, 1),
                org.assertj.core.groups.Tuple.tuple(1, -1));
        assertThat(exits.receiver.level()).as("the thesis's EXIT").isEqualTo(-1);

        ReceiverHarness keeps = joinedAtNineLayers(EraConfig.recommended());
        keeps.feedLive(queue, 3 * SECOND);
        assertThat(keeps.decisions.stream().filter(d -> d.kind() == EraDecision.Kind.QUEUE_DROP))
                .as("the same drops down to the base layer").extracting(EraDecision::toLevel).startsWith(3, 1, 0);
        assertThat(keeps.decisions).noneMatch(d -> d.toLevel() < 0);
        assertThat(keeps.receiver.level()).isZero();
        // The estimate remembers the drop's 100 Kbit/s over its three intervals, loss-free, which keep
        // the base layer; then, the queue empty, the receiver climbs again.
        keeps.feedLive(sent -> 0, 7 * SECOND);
        assertThat(keeps.decisions).noneMatch(d -> d.toLevel() < 0);
        assertThat(keeps.receiver.level()).isPositive();
    }

    /**
     * On the base layer a pair reading 60 Kbit/s (a host's stall, or segments of another flow
     * between its packets) is no drop: it counts in the interval's estimate, and a loss-free interval
     * under the base layer keeps it. The thesis's rules leave the session at once.
     */
    @Test
    void aBunchSampleUnderTheBaseLayerKeepsItWithTheRecommendedRules() {
        ReceiverHarness h = new ReceiverHarness(LAYERS, EraConfig.recommended().toBuilder().packetBytes(PACKET).build(),
                RttEstimator.fixed(Duration.ofMillis(100))).joined();
        h.pair(0, 60_000);
        assertThat(h.last(EraDecision.Kind.STABILITY_DROP)).isNull();
        h.advanceTo(2 * SECOND);
        EraDecision d = h.last(EraDecision.Kind.INTERVAL);
        assertThat(d.bunchEstimate()).isCloseTo(60_000, org.assertj.core.data.Offset.offset(1.0));
        assertThat(d.toLevel()).isZero();
        assertThat(h.receiver.level()).isZero();

        ReceiverHarness thesis = new ReceiverHarness(LAYERS, EraConfig.defaults().toBuilder().packetBytes(PACKET).build(),
                RttEstimator.fixed(Duration.ofMillis(100))).joined();
        thesis.pair(0, 60_000);
        assertThat(thesis.last(EraDecision.Kind.STABILITY_DROP).toLevel()).isEqualTo(-1);
        assertThat(thesis.receiver.level()).isEqualTo(-1);
    }

    /**
     * A path that does not carry the base layer at all: every interval loses a third of its
     * packets, the equation's rate is far under 100 Kbit/s. The receiver holds the base layer through
     * four such decisions and leaves at the fifth, then rejoins after the back-off; one interval
     * that fits between them starts the count again.
     */
    @Test
    void onlyIntervalsInARowUnderTheBaseLayerLeaveTheSession() {
        EraConfig config = EraConfig.recommended().toBuilder().packetBytes(PACKET).build();
        assertThat(config.exitIntervals()).isEqualTo(5);
        ReceiverHarness h = new ReceiverHarness(LAYERS, config, RttEstimator.fixed(Duration.ofMillis(100))).joined();
        long boundary = 2 * SECOND;
        for (int interval = 1; interval <= 4; interval++) {
            lossyInterval(h, boundary);
            boundary += SECOND;
            assertThat(h.last(EraDecision.Kind.INTERVAL).target()).as("interval %d", interval).isLessThan(100_000);
            assertThat(h.receiver.level()).as("interval %d", interval).isZero();
        }
        lossyInterval(h, boundary);
        assertThat(h.receiver.level()).as("the fifth in a row").isEqualTo(-1);
        long exit = h.now;
        h.advanceTo(exit + config.rejoinAfterNanos());
        assertThat(h.receiver.level()).isZero();
        assertThat(h.last(EraDecision.Kind.REJOIN)).isNotNull();

        // After the rejoin: three such intervals, one whose pairs and loss fit, then four more: held.
        ReceiverHarness again = new ReceiverHarness(LAYERS, config, RttEstimator.fixed(Duration.ofMillis(100))).joined();
        boundary = 2 * SECOND;
        for (int interval = 1; interval <= 8; interval++) {
            if (interval == 4) {
                for (int i = 0; i < 20; i++) {
                    again.pair(0, 2_000_000);
                    again.now += 40 * MS;
                }
                again.advanceTo(boundary);
                assertThat(again.last(EraDecision.Kind.INTERVAL).target()).isGreaterThan(100_000);
            } else {
                lossyInterval(again, boundary);
            }
            boundary += SECOND;
            assertThat(again.receiver.level()).as("interval %d", interval).isGreaterThanOrEqualTo(0);
        }
    }

    /**
     * Pairs on the base layer reading the capacity every 250 ms, each followed by a whole pair lost
     * (each loss its own event, more than two round trips apart), up to {@code boundary}.
     */
    private static void lossyInterval(ReceiverHarness h, long boundary) {
        while (h.now + 250 * MS < boundary) {
            h.pair(0, 2_000_000);
            h.lose(0, 2);
            h.now += 250 * MS;
        }
        h.advanceTo(boundary);
    }

    /**
     * Joined on the live layers at 1 s; the first interval's pairs read 1 and 2 Mbit/s with none
     * lost, and its boundary at 2 s takes 9 layers (975 Kbit/s with the headroom, strictly below).
     */
    private static ReceiverHarness joinedAtNineLayers(EraConfig rules) {
        ReceiverHarness h = ReceiverHarness.joinedLive(rules, 1_000_000);
        assertThat(h.receiver.level()).isEqualTo(8);
        return h;
    }

    /**
     * TCP's refills of the queue its cuts emptied (the simulator's backlog went from 9 to 15 and from
     * 5 to 10 packets within 0.2 s after each cut): from each start the queue grows at 0.3 s a
     * second (30 ms over 100 ms of send time) to 40 ms, 10 packets, then holds.
     */
    private static LongUnaryOperator refills(long... starts) {
        return sent -> {
            long q = 0;
            for (long s : starts) {
                if (sent >= s) {
                    q = Math.min(40 * MS, (sent - s) * 3 / 10);
                }
            }
            return q;
        };
    }
}
