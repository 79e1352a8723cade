package net.hopwise.overlay.impair;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Invariants that must hold for every configuration and arrival pattern, not just the tuned ones.
 * The generators already weight the extremes (probability 0 and 1, zero durations, bursts), so
 * jqwik's own edge-case mixing is off: it would spend the tries on combinations of them.
 */
class ImpairmentModelProperties {
    private static final long T0 = 5_000_000_000L;

    @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
    void withoutReorderingPacketsLeaveInOrderNeverEarlyAndAfterTheirDelay(
            @ForAll("withoutReordering") ImpairmentConfig config,
            @ForAll("gaps") List<Long> gaps,
            @ForAll long seed) {
        ImpairmentModel model = new ImpairmentModel(config, seed);
        long[] out = new long[2];
        long now = T0;
        long previous = Long.MIN_VALUE;
        int departed = 0;
        for (long gap : gaps) {
            now += gap;
            int count = model.admit(1200, now, out);
            for (int i = 0; i < count; i++) {
                assertThat(out[i]).isGreaterThanOrEqualTo(now + config.delayNanos()).isGreaterThanOrEqualTo(previous);
                if (config.rateBitsPerSecond() == 0) {
                    assertThat(out[i]).isLessThanOrEqualTo(now + config.delayNanos() + config.jitterNanos());
                }
                previous = out[i];
            }
            departed += count;
        }
        ImpairmentCounters counters = model.counters();
        assertThat(counters.admitted()).isEqualTo(gaps.size());
        assertThat(departed).isEqualTo(counters.delivered() + counters.duplicated());
        assertThat(counters.reordered()).isZero();
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void everyDepartureIsBetweenNowPlusDelayAndAllHoldsAddedUp(
            @ForAll("anyConfig") ImpairmentConfig config,
            @ForAll("gaps") List<Long> gaps,
            @ForAll @IntRange(min = 0, max = 9000) int size,
            @ForAll long seed) {
        ImpairmentModel model = new ImpairmentModel(config, seed);
        long[] out = new long[2];
        long now = T0;
        long serialisation = config.rateBitsPerSecond() == 0
                ? 0
                : ImpairmentModel.serialisationNanos(size, config.rateBitsPerSecond());
        long worstQueue = serialisation * config.queueLimitPackets();
        for (long gap : gaps) {
            now += gap;
            int count = model.admit(size, now, out);
            for (int i = 0; i < count; i++) {
                assertThat(out[i]).isBetween(
                        now + config.delayNanos(),
                        now + worstQueue + config.delayNanos() + config.jitterNanos()
                                + config.reorderDelayNanos());
            }
        }
        if (config.rateBitsPerSecond() > 0) {
            assertThat(model.queuedPackets(now)).isLessThanOrEqualTo(config.queueLimitPackets());
        }
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void sameSeedSameConfigSameArrivalsGiveSameDecisions(
            @ForAll("anyConfig") ImpairmentConfig config,
            @ForAll("gaps") List<Long> gaps,
            @ForAll long seed) {
        ImpairmentModel a = new ImpairmentModel(config, seed);
        ImpairmentModel b = new ImpairmentModel(config, seed);
        long[] outA = new long[2];
        long[] outB = new long[2];
        long now = T0;
        for (long gap : gaps) {
            now += gap;
            int countA = a.admit(700, now, outA);
            int countB = b.admit(700, now, outB);
            assertThat(countB).isEqualTo(countA);
            for (int i = 0; i < countA; i++) {
                assertThat(outB[i]).isEqualTo(outA[i]);
            }
        }
        assertThat(b.counters()).isEqualTo(a.counters());
    }

    @Provide
    Arbitrary<List<Long>> gaps() {
        // Mostly bursts and sub-millisecond gaps, where queueing and FIFO clamping matter.
        return Arbitraries.frequencyOf(
                        Tuple.of(3, Arbitraries.just(0L)),
                        Tuple.of(5, Arbitraries.longs().between(1, 2_000_000)),
                        Tuple.of(1, Arbitraries.longs().between(2_000_000, 200_000_000)))
                .list()
                .ofMinSize(1)
                .ofMaxSize(300);
    }

    @Provide
    Arbitrary<ImpairmentConfig> withoutReordering() {
        return configs(false);
    }

    @Provide
    Arbitrary<ImpairmentConfig> anyConfig() {
        return configs(true);
    }

    private static Arbitrary<ImpairmentConfig> configs(boolean reorder) {
        Arbitrary<Double> probability = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(0.0)),
                Tuple.of(1, Arbitraries.just(1.0)),
                Tuple.of(4, Arbitraries.doubles().between(0, 1)));
        Arbitrary<Duration> duration = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(Duration.ZERO)),
                Tuple.of(3, Arbitraries.longs().between(1, 100_000_000).map(Duration::ofNanos)));
        Arbitrary<LossModel> loss = Arbitraries.oneOf(
                probability.map(LossModel.Bernoulli::new),
                Builders.withBuilder(() -> new double[4])
                        .use(probability).in((a, p) -> { a[0] = p; return a; })
                        .use(probability).in((a, p) -> { a[1] = p; return a; })
                        .use(probability).in((a, p) -> { a[2] = p; return a; })
                        .use(probability).in((a, p) -> { a[3] = p; return a; })
                        .build(a -> new LossModel.GilbertElliott(a[0], a[1], a[2], a[3])));
        return Builders.withBuilder(ImpairmentConfig::builder)
                .use(loss).in(ImpairmentConfig.Builder::loss)
                .use(duration).in(ImpairmentConfig.Builder::delay)
                .use(duration).in(ImpairmentConfig.Builder::jitter)
                .use(Arbitraries.frequencyOf(
                        Tuple.of(1, Arbitraries.just(0L)),
                        Tuple.of(2, Arbitraries.longs().between(10_000, 10_000_000_000L))))
                        .in(ImpairmentConfig.Builder::rateBitsPerSecond)
                .use(Arbitraries.integers().between(1, 200)).in(ImpairmentConfig.Builder::queueLimitPackets)
                .use(probability).in(ImpairmentConfig.Builder::duplicateProbability)
                .use(Arbitraries.longs().between(1, 50_000_000)).in((b, hold) -> reorder
                        ? b.reorderDelay(Duration.ofNanos(hold))
                        : b)
                .use(probability).in((b, p) -> reorder ? b.reorderProbability(p) : b)
                .build(ImpairmentConfig.Builder::build);
    }
}
