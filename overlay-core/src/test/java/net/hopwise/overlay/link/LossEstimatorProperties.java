package net.hopwise.overlay.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/** Properties of the loss estimator over arbitrary, reordered, duplicated and lossy streams. */
class LossEstimatorProperties {

    @Property(tries = 300)
    void estimateStaysWithinBoundsForArbitraryStreams(@ForAll("streams") List<Integer> sequence) {
        LossEstimator e = new LossEstimator();
        for (int s : sequence) {
            e.onPacket(s & 0xFFFF_FFFFL);
            double p = e.lossRate();
            assertThat(p).isBetween(0.0, 1.0);
            assertThat(e.lost()).isNotNegative();
            assertThat(e.received()).isNotNegative();
            assertThat(e.eventsInHistory()).isBetween(0, LossEstimator.HISTORY);
            assertThat(e.historyConsistent()).isTrue();
        }
    }

    /** Mostly small steps either way, some big jumps and some repeats: every branch gets exercised. */
    @Provide
    Arbitrary<List<Integer>> streams() {
        Arbitrary<Integer> step = Arbitraries.frequencyOf(
                Tuple.of(20, Arbitraries.integers().between(1, 3)),
                Tuple.of(5, Arbitraries.integers().between(-70, 70)),
                Tuple.of(1, Arbitraries.integers()),
                Tuple.of(1, Arbitraries.integers().between(60_000, 70_000)));
        return Arbitraries.integers().flatMap(start -> step.list().ofMaxSize(600).map(steps -> {
            List<Integer> out = new ArrayList<>(steps.size());
            int s = start;
            for (int d : steps) {
                s += d;
                out.add(s);
            }
            return out;
        }));
    }

    @Property(tries = 300)
    void reorderingWithinTheWindowAndDuplicationNeverCountAsLoss(
            @ForAll int firstSeq,
            @ForAll @IntRange(min = 1, max = 3000) int count,
            @ForAll @IntRange(max = 63) int maxDisplacement,
            @ForAll @IntRange(max = 30) int duplicatePercent,
            @ForAll long seed) {
        Delivered run = deliver(firstSeq, count, maxDisplacement, duplicatePercent, 0, seed);
        LossEstimator e = new LossEstimator();
        run.sequence.forEach(s -> e.onPacket(s & 0xFFFF_FFFFL));

        assertThat(e.lossRate()).isZero();
        assertThat(e.lost()).isZero();
        assertThat(e.eventsInHistory()).isZero();
    }

    @Property(tries = 300)
    void lostCountsExactlyTheDeclaredMissingNumbers(
            @ForAll int firstSeq,
            @ForAll @IntRange(min = 1, max = 3000) int count,
            @ForAll @IntRange(max = 63) int maxDisplacement,
            @ForAll @IntRange(max = 30) int duplicatePercent,
            @ForAll @IntRange(max = 50) int lossPercent,
            @ForAll long seed) {
        Delivered run = deliver(firstSeq, count, maxDisplacement, duplicatePercent, lossPercent, seed);
        LossEstimator e = new LossEstimator();
        run.sequence.forEach(s -> e.onPacket(s & 0xFFFF_FFFFL));

        if (run.indices.isEmpty()) {
            assertThat(e.received()).isZero();
            return;
        }
        int base = run.indices.get(0);
        int highest = run.indices.stream().max(Integer::compare).orElseThrow();
        long missing = 0;
        long receivedFromBase = run.indices.stream().filter(i -> i >= base).distinct().count();
        // Numbers within DECLARE_AFTER of the highest are still pending, not yet lost.
        for (int i = base + 1; i <= highest - LossEstimator.DECLARE_AFTER; i++) {
            if (!run.delivered[i]) {
                missing++;
            }
        }
        assertThat(e.historyConsistent()).isTrue();
        assertThat(e.lost()).isEqualTo(missing);
        assertThat(e.received()).isEqualTo(receivedFromBase);
        assertThat(e.lossRate()).isBetween(0.0, 1.0);
        if (missing == 0) {
            assertThat(e.lossRate()).isZero();
        }
    }

    private record Delivered(List<Integer> sequence, List<Integer> indices, boolean[] delivered) {}

    /**
     * Packets 0..count-1 (numbered from firstSeq, wrapping), each dropped with lossPercent, then
     * delayed by up to maxDisplacement packet slots, and duplicated with duplicatePercent. A packet
     * delayed by at most d slots arrives before any packet numbered d or more above it.
     */
    private static Delivered deliver(int firstSeq, int count, int maxDisplacement, int duplicatePercent,
            int lossPercent, long seed) {
        Random random = new Random(seed);
        record Arrival(int index, double key) {}
        List<Arrival> arrivals = new ArrayList<>();
        boolean[] delivered = new boolean[count];
        for (int i = 0; i < count; i++) {
            if (random.nextInt(100) < lossPercent) {
                continue;
            }
            delivered[i] = true;
            arrivals.add(new Arrival(i, i + random.nextDouble() * maxDisplacement));
            if (random.nextInt(100) < duplicatePercent) {
                arrivals.add(new Arrival(i, i + random.nextDouble() * maxDisplacement));
            }
        }
        arrivals.sort(Comparator.comparingDouble(Arrival::key));
        List<Integer> sequence = new ArrayList<>();
        List<Integer> indices = new ArrayList<>();
        for (Arrival a : arrivals) {
            sequence.add(firstSeq + a.index);
            indices.add(a.index);
        }
        return new Delivered(sequence, indices, delivered);
    }
}
