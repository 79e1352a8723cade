package net.hopwise.examples.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import net.hopwise.examples.layered.LayeredScenarios.Protocol;
import net.hopwise.examples.layered.LayeredScenarios.Row;
import net.hopwise.examples.layered.LayeredScenarios.Share;
import org.junit.jupiter.api.Test;

/**
 * The layered session in the simulator: receivers behind bottlenecks of different speeds share one
 * stream, each at its own level, and how ERA and PLM share a DropTail bottleneck with TCP.
 */
class LayeredSimulationTest {
    private static final long[] BOTTLENECKS = {300_000, 1_000_000, 10_000_000};

    /**
     * Each receiver ends at the highest level strictly below what its pairs measure (the thesis's
     * rule) and reaches it within 3 s of joining: the first decision needs 3 samples, and one
     * 20 Kbit/s layer brings 2.44 pairs a second, so at most two interval boundaries after the
     * join (up to 1 s away) pass first. Nothing is lost: the target never exceeds the capacity.
     */
    @Test
    void eraReceiversBehindDifferentBottlenecksEachSettleAtTheLevelTheirBottleneckCarries() {
        List<Row> rows = LayeredScenarios.heterogeneous(Protocol.ERA, 1, BOTTLENECKS, 40);
        assertThat(rows).extracting(Row::expectedLevel).containsExactly(13, 48, 99);
        for (Row r : rows) {
            assertThat(r.finalLevel()).as("%s", r).isEqualTo(r.expectedLevel());
            assertThat(r.settleSeconds()).as("%s", r).isLessThanOrEqualTo(3.0);
            assertThat(r.changesAfterSettling()).as("%s", r).isZero();
            assertThat(r.lossRate()).as("%s", r).isLessThan(0.001);
            // Whole seconds of a constant-rate stream: within 1% of R_i.
            assertThat(r.throughput()).as("%s", r)
                    .isCloseTo(LayeredScenarios.LAYERS.cumulative(r.expectedLevel()), org.assertj.core.data.Percentage.withPercentage(1));
        }
        // E on 300 Kbit/s: 280/300 with 20 Kbit/s layers and the strict rule (the thesis measured 0.90).
        assertThat(rows.get(0).efficiency()).isGreaterThan(0.93);
    }

    @Test
    void plmReceiversReachTheSameLevelsAlone() {
        for (Row r : LayeredScenarios.heterogeneous(Protocol.PLM, 2, BOTTLENECKS, 40)) {
            assertThat(r.finalLevel()).as("%s", r).isEqualTo(r.expectedLevel());
            assertThat(r.lossRate()).as("%s", r).isLessThan(0.001);
        }
    }

    /**
     * On a DropTail bottleneck PLM (no TCP equation) takes more than half from TCP, as the thesis
     * found without fair queuing; ERA leaves TCP at least its half in both start orders, with the
     * thesis's constant round trip or a measured one (it falls short of its own half: see
     * docs/layered-multicast.md). Means over three seeds, since one run's share swings with TCP's
     * sawtooth.
     */
    @Test
    void withTcpOnDropTailPlmTakesMoreThanItsShareAndEraDoesNot() {
        for (boolean tcpFirst : new boolean[] {false, true}) {
            double plm = IntStream.rangeClosed(1, 3)
                    .mapToDouble(s -> LayeredScenarios.withTcp(Protocol.PLM, s, 400_000, tcpFirst, 80).friendliness())
                    .average().orElseThrow();
            assertThat(plm).as("PLM's F, tcp first: %s", tcpFirst).isGreaterThan(1.5);
            for (Protocol era : new Protocol[] {Protocol.ERA, Protocol.ERA_RTT}) {
                double tcp = IntStream.rangeClosed(1, 3)
                        .mapToObj(s -> LayeredScenarios.withTcp(era, s, 400_000, tcpFirst, 80))
                        .mapToDouble(Share::tcp).average().orElseThrow();
                assertThat(tcp).as("TCP beside %s, tcp first: %s", era, tcpFirst).isGreaterThan(200_000);
            }
        }
    }

    /**
     * Late joiners behind a bottleneck others already fill: each reaches the shared level (19
     * layers on 400 Kbit/s) within 3 s of joining (the same bound as a lone receiver: its first
     * decision waits for 3 samples of the base layer) and nobody loses more than 1%.
     */
    @Test
    void lateJoinersReachTheSharedLevelWithinThreeSeconds() {
        List<LayeredScenarios.Joiner> joiners = LayeredScenarios.lateJoiners(Protocol.ERA, 3, 60);
        for (LayeredScenarios.Joiner j : joiners) {
            assertThat(j.finalLevel()).as("%s", j).isEqualTo(18);
            assertThat(j.settleSeconds()).as("%s", j).isLessThanOrEqualTo(3.0);
            assertThat(j.lossRate()).as("%s", j).isLessThan(0.01);
        }
    }

    /**
     * Behind the 1 Mbit/s exterior links of the thesis's trace a pair reaches the bottleneck 4 ms
     * apart and TCP's packets fall between its two packets, so the minimum sample sees the share
     * left, not the capacity: ERA as the thesis ran it (a constant 50 ms round trip) then shares
     * with TCP as the thesis reports (F about 0.9; measured over 10 seeds in
     * docs/layered-multicast.md), and so does ERA with loss events. Asserted with room for three
     * seeds' spread. With the bunches on an exact grid TCP's packets, clocked by the bottleneck
     * whose packet time divides the bunch spacing, met the same layers' pairs at the same phase
     * every time, and ERA got F 0.54 (0.79 with loss events).
     */
    @Test
    void behindTheThesissExteriorLinksEraSharesWithTcp() {
        for (boolean tcpFirst : new boolean[] {false, true}) {
            for (Protocol p : new Protocol[] {Protocol.ERA, Protocol.ERA_EVENTS}) {
                List<Share> runs = IntStream.rangeClosed(1, 3)
                        .mapToObj(s -> LayeredScenarios.withTcp(p, s, 400_000, tcpFirst, 80, 1_000_000)).toList();
                double f = runs.stream().mapToDouble(Share::friendliness).average().orElseThrow();
                assertThat(f).as("%s's F, tcp first: %s", p, tcpFirst).isBetween(0.7, 1.15);
                assertThat(runs.stream().mapToDouble(Share::jain).average().orElseThrow()).isGreaterThanOrEqualTo(0.97);
            }
        }
    }

    /**
     * The bottleneck halves (a 500 Kbit/s CBR flow joins at 20 s): the first pair the CBR flow
     * splits drops ERA to the 480 Kbit/s below what is left, and it stays near there. With the
     * bunches on an exact grid the CBR flow (whose packet time divides the bunch spacing) split only
     * the top layers' pairs, so the next interval's minimum read the capacity, ERA rejoined every
     * layer, lost 22% of a second and fell to 230 Kbit/s through the TCP equation. One seed here;
     * over ten the worst second still loses several per cent while the first split pair is awaited
     * (docs/layered-multicast.md).
     */
    @Test
    void whenTheBottleneckHalvesEraFollowsWhatIsLeft() {
        for (Protocol p : new Protocol[] {Protocol.ERA, Protocol.ERA_PLUS}) {
            LayeredScenarios.Halving h = LayeredScenarios.halving(p, 1, 40);
            assertThat(h.before()).as("%s %s", p, h).isGreaterThan(970_000);
            assertThat(h.after()).as("%s %s", p, h).isBetween(440_000.0, 500_000.0);
            assertThat(h.reactionSeconds()).as("%s %s", p, h).isLessThan(1.0);
            assertThat(h.peakLossRate()).as("%s %s", p, h).isLessThan(0.05);
        }
    }

    /**
     * RLM's join experiments on 20 Kbit/s layers: one layer per experiment, each a join-timer draw
     * (at least 2.5 s) and a detection timer apart, so the 300 Kbit/s receiver needs far longer than
     * ERA's 3 s to reach its level; and a 25% loss threshold cannot see one layer of overshoot (a few
     * per cent of loss), so it oversubscribes and loses packets where ERA loses none. RLM runs 300 s
     * here, where 120 s sufficed with a fixed 2 s detection time: the estimated one starts at 9 s (5 s
     * plus two deviations of 2 s) and only failed experiments shorten it, so at 120 s the receiver is
     * still climbing (level 9, no loss yet).
     */
    @Test
    void rlmConvergesSlowlyAndLosesWhereEraDoesNot() {
        Row rlm = LayeredScenarios.heterogeneous(Protocol.RLM, 1, new long[] {300_000}, 300).get(0);
        Row era = LayeredScenarios.heterogeneous(Protocol.ERA, 1, new long[] {300_000}, 120).get(0);
        assertThat(era.lossRate()).isZero();
        assertThat(rlm.lossRate()).as("%s", rlm).isGreaterThan(0.01);
        assertThat(rlm.finalLevel()).as("%s", rlm).isGreaterThan(rlm.expectedLevel());
        assertThat(Double.isNaN(rlm.settleSeconds()) || rlm.settleSeconds() > 20).as("%s", rlm).isTrue();
    }

    /**
     * FLID-DL with dynamic layering behind the 300 Kbit/s bottleneck of ERA's Exp. I: its increase
     * signals, calibrated to a fixed round trip, let it climb one layer a slot past the capacity,
     * and it must hold the level a whole slot before a loss lowers it, so it oscillates and loses
     * packets (the thesis: 5-16%) where ERA, on the same bottleneck, loses none and stays put.
     */
    @Test
    void flidDlOscillatesAroundTheBottleneckAndLosesWhereEraDoesNot() {
        java.util.Map<String, Double> flid = ChapterSixScenarios.b5(Bench.Proto.FLID_DL, 1);
        java.util.Map<String, Double> era = ChapterSixScenarios.b5(Bench.Proto.ERA, 1);
        assertThat(flid.get("PLR")).as("%s", flid).isGreaterThan(0.02);
        assertThat(flid.get("changes/min")).as("%s", flid).isGreaterThan(10);
        // Oscillating one layer (x 1.3) either side of 13 layers (280 Kbit/s): about the capacity on average.
        assertThat(flid.get("Kbit/s")).as("%s", flid).isBetween(220.0, 320.0);
        assertThat(era.get("PLR")).as("%s", era).isZero();
        assertThat(era.get("changes/min")).as("%s", era).isZero();
    }
}
