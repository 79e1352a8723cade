package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The options for sessions that share a bottleneck, on virtual time: the queue rule's floor over a
 * few packets ({@link EraConfig.Builder#queueFloorPackets}) and the additive rise after a queue drop
 * ({@link EraConfig.Builder#additiveRise}).
 */
class EraSharingRulesTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long CAPACITY = 1_000_000;
    private static final long BASE_DELAY = 20 * MS;
    private static final LongUnaryOperator HALVING = sent -> sent < 2200 * MS ? 0 : (sent - 2200 * MS) * 48 / 100;

    @Test
    void afterAQueueDropTheAdditiveRiseClimbsOneLayerAnIntervalWhereTheThesissRiseJumps() {
        EraConfig drain = EraConfig.prompt().toBuilder().queueDrain(true).build();
        ReceiverHarness jumps = droppedAtTheHalving(drain);
        ReceiverHarness climbs = droppedAtTheHalving(drain.toBuilder().additiveRise(1).build());
        int left = climbs.receiver.level();
        assertThat(left).as("the same drop and drain").isEqualTo(jumps.receiver.level()).isBetween(11, 19);

        // The cross traffic has gone: every pair reads the capacity again, nothing is lost.
        List<Integer> thesis = levelsAtBoundaries(jumps, 4, CAPACITY);
        List<Integer> additive = levelsAtBoundaries(climbs, 4, CAPACITY);
        // At once to the rate the queue said was left (the estimate remembers it for three
        // intervals), then to the pairs' 980 Kbit/s.
        assertThat(thesis).containsExactly(23, 23, 23, 48);
        assertThat(additive).containsExactly(left + 1, left + 2, left + 3, left + 4);
    }

    @Test
    void theAdditiveRiseEndsAtTheLevelTheDropLeft() {
        ReceiverHarness h = droppedAtTheHalving(EraConfig.prompt().toBuilder().queueDrain(true).additiveRise(1).build());
        int drained = h.receiver.level();
        List<Integer> levels = levelsAtBoundaries(h, 48 - drained, CAPACITY);
        for (int i = 0; i < levels.size(); i++) {
            assertThat(levels.get(i)).isEqualTo(drained + i + 1);
        }
        assertThat(h.receiver.level()).as("back at the level the drop left").isEqualTo(48);
        // From there the thesis's rise again: pairs reading 2 Mbit/s take every layer once the
        // estimate's three intervals have seen them, in one step.
        List<Integer> after = levelsAtBoundaries(h, 4, 2 * CAPACITY);
        assertThat(after).containsExactly(48, 48, 98, 98);
    }

    @Test
    void withTheAdditiveRiseAQueueDropKeepsTheBaseLayer() {
        // On one layer the drop's R / 2 bound is under the base layer: the thesis's rules leave the
        // session for the back-off, the option keeps the base layer (leaving is the equation's to decide).
        EraConfig prompt = EraConfig.prompt();
        assertThat(levelAfterASlowSessionsSteepRise(prompt)).isEqualTo(-1);
        assertThat(levelAfterASlowSessionsSteepRise(prompt.toBuilder().additiveRise(1).build())).isZero();
    }

    @Test
    void aSlowSessionsOneBunchBehindABurstIsNoGrowthWithTheFloorOverFourPackets() {
        EraConfig prompt = EraConfig.prompt();
        assertThat(burstDrops(prompt)).as("the last quarter of the window holds one pair, which met the burst").isTrue();
        assertThat(burstDrops(prompt.toBuilder().queueFloorPackets(4).build())).isFalse();
    }

    @Test
    void theFloorOverFourPacketsLeavesAFastSessionsDropAtTheHalvingAsItWas() {
        EraDecision without = firstQueueDrop(ReceiverHarness.atCapacity(EraConfig.prompt()));
        EraDecision with = firstQueueDrop(ReceiverHarness.atCapacity(EraConfig.prompt().toBuilder().queueFloorPackets(4).build()));
        assertThat(with.nowNanos()).isEqualTo(without.nowNanos());
        assertThat(with.toLevel()).isEqualTo(without.toLevel()).isEqualTo(23);
    }

    @Test
    void bothOptionsAreOffByDefaultAndInNoPreset() {
        for (EraConfig c : List.of(EraConfig.defaults(), EraConfig.fair(), EraConfig.prompt(), EraConfig.friendly(),
                EraConfig.recommended())) {
            assertThat(c.additiveRise()).isZero();
            assertThat(c.queueFloorPackets()).isZero();
        }
        EraConfig both = EraConfig.recommended().toBuilder().additiveRise(2).queueFloorPackets(4).build();
        assertThat(both.toBuilder().build().additiveRise()).isEqualTo(2);
        assertThat(both.toBuilder().build().queueFloorPackets()).isEqualTo(4);
    }

    /** At 49 layers, then the halving's step until the queue drop and the drain; the feed stops there. */
    private static ReceiverHarness droppedAtTheHalving(EraConfig config) {
        ReceiverHarness h = ReceiverHarness.atCapacity(config);
        feed(h, HALVING, 2400 * MS, 49);
        List<EraDecision> drops = h.decisions.stream().filter(d -> d.kind() == EraDecision.Kind.QUEUE_DROP).toList();
        assertThat(drops).hasSizeGreaterThanOrEqualTo(2);
        assertThat(drops.get(0).fromLevel()).isEqualTo(48);
        return h;
    }

    /**
     * Pairs of every layer held, reading {@code bps} and meeting no queue, until each of the next
     * {@code boundaries} interval boundaries: the level after each.
     */
    private static List<Integer> levelsAtBoundaries(ReceiverHarness h, int boundaries, long bps) {
        List<Integer> levels = new java.util.ArrayList<>();
        for (int b = 0; b < boundaries; b++) {
            long boundary = h.receiver.nextBoundaryNanos();
            int layer = 0;
            while (h.now < boundary - 50 * MS) {
                h.pair(layer, bps);
                layer = (layer + 1) % (h.receiver.level() + 1);
                h.now += 20 * MS;
            }
            h.advanceTo(boundary + MS);
            levels.add(h.receiver.level());
        }
        return levels;
    }


    private static EraDecision firstQueueDrop(ReceiverHarness h) {
        feed(h, HALVING, 2400 * MS, 49);
        return h.decisions.stream().filter(d -> d.kind() == EraDecision.Kind.QUEUE_DROP).findFirst().orElseThrow();
    }

    /**
     * The sender's pairs of {@code layers} layers in turn at 980 Kbit/s from 2 s, each arriving after
     * the base delay and the queue it met, a pair's second packet one packet time behind its first,
     * until the first queue drop or {@code sendUntil}.
     */
    private static void feed(ReceiverHarness h, LongUnaryOperator queue, long sendUntil, int layers) {
        long spacing = 2 * 8L * 512 * SECOND / 980_000;
        long packetTime = 8L * 512 * SECOND / CAPACITY;
        long arrival = 0;
        int layer = 0;
        for (long sent = 2 * SECOND; sent < sendUntil; sent += spacing) {
            long first = Math.max(arrival, sent + BASE_DELAY + queue.applyAsLong(sent));
            for (int k = 0; k < 2; k++) {
                arrival = first + k * packetTime;
                h.advanceTo(arrival);
                h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, layer, h.psn[layer]++, sent / 1000, k == 0, 2, 1),
                        arrival);
            }
            if (h.last(EraDecision.Kind.QUEUE_DROP) != null) {
                h.now = arrival;
                return;
            }
            layer = (layer + 1) % layers;
        }
        h.now = arrival;
    }

    /**
     * A session on the base layer at 20 Kbit/s whose bottleneck's queue grows fast (slope 1): the
     * level after the first queue drop.
     */
    private static int levelAfterASlowSessionsSteepRise(EraConfig config) {
        ReceiverHarness h = new ReceiverHarness(LayerRates.equal(100, 20_000), config,
                RttEstimator.fixed(Duration.ofMillis(50))).joined();
        long packetTime = 8L * 512 * SECOND / 600_000;
        // Pairs every 10 ms of send time on the base layer (as a sender of many layers' first layer
        // would not, but the rule reads only delays), the queue growing by 1 s a second from 1.2 s.
        long arrival = 0;
        for (long sent = SECOND + 10 * MS; sent < 1400 * MS && h.last(EraDecision.Kind.QUEUE_DROP) == null; sent += 10 * MS) {
            long first = Math.max(arrival, sent + BASE_DELAY + Math.max(0, sent - 1200 * MS));
            for (int k = 0; k < 2; k++) {
                arrival = first + k * packetTime;
                h.advanceTo(arrival);
                h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, 0, h.psn[0]++, sent / 1000, k == 0, 2, 1), arrival);
            }
        }
        assertThat(h.last(EraDecision.Kind.QUEUE_DROP)).isNotNull();
        return h.receiver.level();
    }

    /**
     * A session on 5 layers (about one pair every 80 ms of send time) on a 600 Kbit/s bottleneck
     * whose queue is empty but for one burst of other sessions' bunches, 35 ms of it, which one pair
     * meets: whether the queue rule drops.
     */
    private static boolean burstDrops(EraConfig config) {
        ReceiverHarness h = new ReceiverHarness(LayerRates.equal(100, 20_000), config,
                RttEstimator.fixed(Duration.ofMillis(50))).joined();
        long packetTime = 8L * 512 * SECOND / 600_000;
        for (int i = 0; i < 3; i++) {
            h.pair(0, 120_000);
            h.now += 100 * MS;
        }
        h.advanceTo(2 * SECOND);
        assertThat(h.receiver.level()).as("5 layers, strictly below the 120 Kbit/s the pairs read").isEqualTo(4);
        // Pairs of the five layers in turn, 40 ms of send time apart, each pair's second packet one
        // packet time of the bottleneck behind its first; the sixth meets the burst.
        long arrival = 0;
        int layer = 0;
        for (int n = 0; n < 8; n++) {
            long sent = 2 * SECOND + 50 * MS + n * 40 * MS;
            long first = sent + BASE_DELAY + (n == 5 ? 35 * MS : 0);
            for (int k = 0; k < 2; k++) {
                arrival = Math.max(arrival, first + k * packetTime);
                h.advanceTo(arrival);
                h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, layer, h.psn[layer]++, sent / 1000, k == 0, 2, 1),
                        arrival);
            }
            layer = (layer + 1) % 5;
        }
        return h.last(EraDecision.Kind.QUEUE_DROP) != null;
    }
}
