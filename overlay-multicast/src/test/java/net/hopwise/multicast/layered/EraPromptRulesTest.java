package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/** The rules {@link EraConfig#prompt()} adds to {@link EraConfig#fair()}, each on virtual time. */
class EraPromptRulesTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    /** The halving's path: a 1 Mbit/s bottleneck, 20 ms one way. */
    private static final long CAPACITY = 1_000_000;
    private static final long BASE_DELAY = 20 * MS;
    /** The last feed's one-way delay of each packet, by arrival. */
    private static final java.util.TreeMap<Long, Long> ARRIVALS = new java.util.TreeMap<>();

    @Test
    void aQueueGrowingAtTheHalvingsPaceDropsToWhatIsLeftBeforeItCouldOverflow() {
        // From 2.2 s a 500 Kbit/s flow joins the 980 Kbit/s session on the 1 Mbit/s bottleneck: the
        // queue grows by 0.48 s a second and a 2 x BDP queue (80 ms) would overflow within 0.17 s.
        long halvedAt = 2200 * MS;
        LongUnaryOperator queue = sent -> sent < halvedAt ? 0 : (sent - halvedAt) * 48 / 100;

        ReceiverHarness prompt = ReceiverHarness.atCapacity(EraConfig.prompt());
        // The feed does not answer the drop (the flow keeps all 49 layers coming): only the first counts.
        long until = feed(prompt, queue, 2400 * MS);
        EraDecision drop = prompt.decisions.stream().filter(d -> d.kind() == EraDecision.Kind.QUEUE_DROP).findFirst()
                .orElseThrow();
        assertThat(drop.fromLevel()).isEqualTo(48);
        // What is left, 500 Kbit/s, strictly below: 24 layers.
        assertThat(drop.toLevel()).isEqualTo(23);
        // Seen at the receiver while the queue held less than half of its 80 ms.
        assertThat(drop.nowNanos() - halvedAt).isLessThan(120 * MS);

        // The fair rules see nothing: no pair is split and nothing is lost yet.
        ReceiverHarness fair = ReceiverHarness.atCapacity(EraConfig.fair());
        feed(fair, queue, until);
        assertThat(fair.receiver.level()).isEqualTo(48);
    }

    @Test
    void withTheDrainAHalvingSizedDropAlsoLeavesTheQueueItBuilt() {
        // The halving's step again; the queue it built (tens of milliseconds by the drop) drains at
        // only 2% of the capacity at what is left, so the drain option leaves more for a while.
        long halvedAt = 2200 * MS;
        LongUnaryOperator queue = sent -> sent < halvedAt ? 0 : (sent - halvedAt) * 48 / 100;
        ReceiverHarness drain = ReceiverHarness.atCapacity(EraConfig.prompt().toBuilder().queueDrain(true).build());
        long until = feed(drain, queue, 2400 * MS);
        java.util.List<EraDecision> drops = drain.decisions.stream().filter(d -> d.kind() == EraDecision.Kind.QUEUE_DROP)
                .toList();
        // The estimate keeps what is left (the next boundary rejoins from there); the level goes lower
        // at the same instant: at least a layer (the queue's content over half an interval), at most
        // to half of what is left.
        assertThat(drops.get(0).toLevel()).isEqualTo(23);
        assertThat(drops.get(1).nowNanos()).isEqualTo(drops.get(0).nowNanos());
        assertThat(drops.get(1).fromLevel()).isEqualTo(23);
        assertThat(drops.get(1).toLevel()).isBetween(11, 22);

        // Without the option the drop stops at what is left.
        ReceiverHarness prompt = ReceiverHarness.atCapacity(EraConfig.prompt());
        feed(prompt, queue, until);
        EraDecision first = prompt.decisions.stream().filter(d -> d.kind() == EraDecision.Kind.QUEUE_DROP).findFirst()
                .orElseThrow();
        assertThat(first.toLevel()).isEqualTo(23);
        assertThat(prompt.decisions.stream().filter(d -> d != first && d.nowNanos() == first.nowNanos())).isEmpty();
        assertThat(EraConfig.prompt().queueDrain()).isFalse();
    }

    @Test
    void theDrainEmptiesTheQueueAsTheLatestPacketMetItNotTheLaggingFloor() {
        // The halving's step: by the drop the newest packet met more queue than the floor of the last
        // quarter window says, and the queue goes on growing until the drop reaches the bottleneck.
        // Drained from the floor alone, the halving's seed 11 landed right at what is left, where the
        // queue never empties and jitter overflowed it (2.4% lost in its worst second).
        long halvedAt = 2200 * MS;
        LongUnaryOperator queue = sent -> sent < halvedAt ? 0 : (sent - halvedAt) * 48 / 100;
        ReceiverHarness drain = ReceiverHarness.atCapacity(EraConfig.prompt().toBuilder().queueDrain(true).build());
        feed(drain, queue, 2400 * MS);
        java.util.List<EraDecision> drops = drain.decisions.stream().filter(d -> d.kind() == EraDecision.Kind.QUEUE_DROP)
                .toList();
        double keep = drops.get(0).samples()[0];
        double drained = drops.get(1).samples()[0];
        // The join's pairs arrived without delay, so all the newest packet's delay (it arrived at the
        // drop) is queue to the receiver: at least that much is emptied within half an interval.
        double latestQueueSeconds = ARRIVALS.floorEntry(drops.get(1).nowNanos()).getValue() / 1e9;
        assertThat(drained).isLessThanOrEqualTo(keep - CAPACITY * latestQueueSeconds / 0.5);
        assertThat(drained).isGreaterThanOrEqualTo(keep / 2);
    }

    @Test
    void bunchesQueueingEachOtherAndTcpsSlowGrowthAreNoReason() {
        // Every seventh pair waits behind two packets of other layers (8 ms), and the queue grows at
        // 0.05 s a second for a second, TCP's congestion avoidance on a path of about 100 ms.
        long from = 2100 * MS;
        LongUnaryOperator queue = sent -> {
            long slow = sent < from ? 0 : Math.min(SECOND, sent - from) / 20;
            return slow + ((sent / (8 * MS)) % 7 == 0 ? 8 * MS : 0);
        };
        ReceiverHarness prompt = ReceiverHarness.atCapacity(EraConfig.prompt());
        feed(prompt, queue, 3900 * MS);
        assertThat(prompt.last(EraDecision.Kind.QUEUE_DROP)).isNull();
        assertThat(prompt.receiver.level()).isEqualTo(48);
    }

    @Test
    void onAPathAlreadyLosingTheQueuesGrowthIsLeftToTheTcpEquation() {
        // Beside TCP the queue fills every sawtooth, and drops on its growth left TCP two thirds of the path.
        long halvedAt = 2500 * MS;
        LongUnaryOperator queue = sent -> sent < halvedAt ? 0 : (sent - halvedAt) * 48 / 100;
        ReceiverHarness prompt = ReceiverHarness.atCapacity(EraConfig.prompt());
        feed(prompt, queue, 2700 * MS, 2000 * MS);
        assertThat(prompt.last(EraDecision.Kind.QUEUE_DROP)).isNull();
        assertThat(prompt.receiver.level()).isEqualTo(48);

        // The same without the loss: dropped.
        ReceiverHarness lossless = ReceiverHarness.atCapacity(EraConfig.prompt());
        feed(lossless, queue, 2700 * MS, Long.MAX_VALUE);
        assertThat(lossless.last(EraDecision.Kind.QUEUE_DROP)).isNotNull();
    }

    @Test
    void thePromptRulesAreTheFairOnesPlusTheQueueRule() {
        EraConfig prompt = EraConfig.prompt();
        EraConfig fair = EraConfig.fair();
        assertThat(prompt.queueRiseNanos()).isEqualTo(20 * MS);
        assertThat(fair.queueRiseNanos()).isZero();
        assertThat(EraConfig.thesis().queueRiseNanos()).isZero();
        assertThat(prompt.toBuilder().queueRise(Duration.ZERO).build().toBuilder().build().queueRiseNanos()).isZero();
        assertThat(prompt.lossEvents()).isEqualTo(fair.lossEvents());
        assertThat(prompt.estimateIntervals()).isEqualTo(fair.estimateIntervals());
        assertThat(prompt.strictWithLoss()).isEqualTo(fair.strictWithLoss());
        assertThat(prompt.startSamples()).isEqualTo(fair.startSamples());
    }

    @Test
    void withTheShareOptionEachSessionDrainsOnlyItsOwnPartOfTheQueue() {
        // The halving's step: the session is 980 of the 1480 Kbit/s the bottleneck takes in, about
        // two thirds, so it empties about two thirds of what the whole drain empties.
        long halvedAt = 2200 * MS;
        LongUnaryOperator queue = sent -> sent < halvedAt ? 0 : (sent - halvedAt) * 48 / 100;
        EraConfig drain = EraConfig.prompt().toBuilder().queueDrain(true).build();
        double[] whole = drained(drain, queue);
        double[] share = drained(drain.toBuilder().queueDrainShare(true).build(), queue);
        assertThat(share[0]).as("the same drop to what is left").isEqualTo(whole[0]);
        double ratio = (share[0] - share[1]) / (whole[0] - whole[1]);
        assertThat(ratio).isBetween(0.55, 0.8);
        assertThat(EraConfig.prompt().queueDrainShare()).isFalse();
    }

    /** Fed the step at capacity: the queue drop's rate and the drain's, bits per second. */
    private static double[] drained(EraConfig config, LongUnaryOperator queue) {
        ReceiverHarness h = ReceiverHarness.atCapacity(config);
        feed(h, queue, 2400 * MS);
        java.util.List<EraDecision> drops = h.decisions.stream().filter(d -> d.kind() == EraDecision.Kind.QUEUE_DROP).toList();
        assertThat(drops.get(1).nowNanos()).isEqualTo(drops.get(0).nowNanos());
        return new double[] {drops.get(0).samples()[0], drops.get(1).samples()[0]};
    }


    /**
     * The sender's pairs of the 49 layers in turn at 980 Kbit/s from 2 s (sender's clock), each
     * packet arriving after the base delay and the queue it met, a pair's second packet one packet
     * time of the bottleneck behind its first; the receiver's timers fire on the way.
     *
     * @return the last arrival
     */
    private static long feed(ReceiverHarness h, LongUnaryOperator queue, long sendUntil) {
        return feed(h, queue, sendUntil, Long.MAX_VALUE);
    }

    /** The same, one packet lost on the first layer already seen once that is sent after {@code lossAfter}. */
    private static long feed(ReceiverHarness h, LongUnaryOperator queue, long sendUntil, long lossAfter) {
        long spacing = 2 * 8L * 512 * SECOND / 980_000;
        long packetTime = 8L * 512 * SECOND / CAPACITY;
        long[] psn = h.psn;
        long arrival = 0;
        ARRIVALS.clear();
        int layer = 0;
        for (long sent = 2 * SECOND; sent < sendUntil; sent += spacing) {
            if (sent >= lossAfter && psn[layer] > 0) {
                psn[layer]++;
                lossAfter = Long.MAX_VALUE;
            }
            long first = Math.max(arrival, sent + BASE_DELAY + queue.applyAsLong(sent));
            for (int k = 0; k < 2; k++) {
                arrival = first + k * packetTime;
                ARRIVALS.put(arrival, arrival - sent);
                h.advanceTo(arrival);
                h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, layer, psn[layer]++, sent / 1000, k == 0, 2, 1),
                        arrival);
            }
            layer = (layer + 1) % 49;
        }
        return arrival;
    }
}
