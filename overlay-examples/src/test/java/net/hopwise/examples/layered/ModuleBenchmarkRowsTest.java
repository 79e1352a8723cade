package net.hopwise.examples.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * B1, B5, B6 and B7 through the multicast module on simulated nodes ({@link ModuleBenchmarkRows})
 * against the harness's ERA_RECOMMENDED on the same seeds, on virtual time. The tolerances are the
 * per-seed ranges docs/layered-multicast.md ("The module itself on the simulator") measured on 20
 * seeds, with a margin, and the differences it explains: the 28 bytes of IP and UDP headers a pair's
 * dispersion carries beyond the session's 512, the nodes' 10 hellos a second on the bottleneck that
 * split pairs, and, beside TCP, a phase effect of the harness's deterministic queue that the module's
 * traffic does not share. One or two seeds a row, since with every buffer tracked
 * for leaks a module seed costs 2-3 s here (0.1-0.3 s in the program); B6 runs seed 1, under the
 * goal's 1% peak, and seed 4, over it, so the looser bound there is tested, not skipped.
 */
class ModuleBenchmarkRowsTest {
    private static Map<String, Double> check(long seed, Map<String, Double> module, Map<String, Double> harness,
            java.util.function.BiConsumer<Map<String, Double>, String> assertions) {
        assertions.accept(module, "seed " + seed + ": module " + module + " harness " + harness);
        return module;
    }

    @Test
    void b1TheModuleKeepsTheHarnesssEfficiencyLessTheHeadersAndSplitPairsWithoutLoss() {
        long seed = 1;
        Map<String, Double> h = ChapterFourScenarios.b1(ModuleBenchmarkRows.HARNESS, seed);
        check(seed, ModuleBenchmarkRows.b1(seed), h, (m, why) -> {
            // 20 seeds: E 0.518 against 0.580, per seed 0.81-0.98 of the harness's.
            assertThat(m.get("E") / h.get("E")).as(why).isBetween(0.75, 1.0);
            assertThat(m.get("PLR")).as(why).isLessThan(0.005);
        });
    }

    @Test
    void b5TheModuleHoldsTheLevelItsWireAllowsWithoutLoss() {
        long seed = 2;
        Map<String, Double> h = ChapterSixScenarios.b5(ModuleBenchmarkRows.HARNESS, seed);
        check(seed, ModuleBenchmarkRows.b5(seed), h, (m, why) -> {
            // 20 seeds: E 0.809 against 0.933, per seed 0.83-0.90 of it; 512 / 540 of the link is 0.948.
            assertThat(m.get("E") / h.get("E")).as(why).isBetween(0.80, 0.95);
            assertThat(m.get("PLR")).as(why).isZero();
            assertThat(m.get("peak PLR")).as(why).isLessThan(0.01);
            assertThat(m.get("conv s (wire)")).as(why).isLessThan(2.5);
        });
    }

    @Test
    void b6TheModuleReactsAsTheHarnessButMayKeepAStandingQueueAfterTheHalving() {
        for (long seed : new long[] {1, 4}) {
            Map<String, Double> h = ChapterSixScenarios.b6(ModuleBenchmarkRows.HARNESS, seed);
            check(seed, ModuleBenchmarkRows.b6(seed), h, (m, why) -> {
                assertThat(h.get("peak PLR")).as(why).isLessThan(0.01);
                // 20 seeds: 0.94-0.97 of the harness's rate after the halving.
                assertThat(m.get("after") / h.get("after")).as(why).isBetween(0.92, 1.0);
                assertThat(m.get("react s")).as(why).isLessThan(1.0);
                // The goal's 1% is missed on 6 of 20 seeds (1.7-5%; seed 4 4.2%): level 23 is 506 Kbit/s on
                // the wire where 500 are left, and the split pair that measures the share reads 2.7% high.
                assertThat(m.get("peak PLR")).as(why).isLessThan(0.06);
                assertThat(m.get("PLR")).as(why).isLessThan(0.02);
            });
        }
    }

    @Test
    void b7BehindOneMegabitLinksTheModuleIsAsFriendlyAsTheHarnessLessItsHeaders() {
        long seed = 1;
        Map<String, Double> h = ChapterSixScenarios.b7(ModuleBenchmarkRows.HARNESS, 1_000_000, true, seed);
        check(seed, ModuleBenchmarkRows.b7(1_000_000, true, seed), h, (m, why) -> {
            // 20 seeds: F 0.83 against 1.04, per seed 0.79-0.88.
            assertThat(m.get("F") - h.get("F")).as(why).isBetween(-0.35, 0.05);
            assertThat(m.get("Jain")).as(why).isGreaterThan(0.97);
        });
    }

    @Test
    void b7BehindTenMegabitLinksNeitherStarvesTheOther() {
        long seed = 1;
        Map<String, Double> h = ChapterSixScenarios.b7(ModuleBenchmarkRows.HARNESS, 10_000_000, false, seed);
        check(seed, ModuleBenchmarkRows.b7(10_000_000, false, seed), h, (m, why) -> {
            // 20 seeds: F 1.71 against 1.01, per seed 1.35-2.29. The harness's 1.01 rests on a phase effect of
            // its deterministic queue, which drops the session's packets at five times TCP's rate; on the
            // module (and in the harness with an overlay's hellos on the bottleneck, F 1.80) the drops fall
            // evenly and TCP Reno times out often (docs: "Why the module meets less loss"). The test holds
            // it to that, not to the goal |F - 1| <= 0.1, which is missed here.
            assertThat(m.get("F")).as(why).isBetween(1.0, 2.6);
            assertThat(m.get("Jain")).as(why).isGreaterThan(0.85);
            assertThat(m.get("TCP")).as(why).isGreaterThan(80.0);
        });
    }
}
