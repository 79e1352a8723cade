package net.hopwise.examples.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator's side of the layered-beside-TCP comparison: its trace reads as the live one does. */
class LayeredTcpSimulationTest {
    /** The live topology, short: 2 Mbit/s, no path delay to speak of, a 30-packet queue. */
    private static final LayeredTcpSimulation.Setup LIVE = new LayeredTcpSimulation.Setup(2_000_000, 0.1, 30,
            10_000_000, 0.05, 40, 100_000, 1000, 16);

    @Test
    void aRunTracesBothFlowsInTheLiveBenchmarksLines() {
        List<String> decisions = new ArrayList<>();
        List<String> queue = new ArrayList<>();
        double[] rates = LayeredTcpSimulation.run(LIVE, "fair", "forward", false, 1, decisions, queue);
        assertThat(rates[0]).isPositive();
        assertThat(rates[1]).isPositive();
        assertThat(rates[0] + rates[1]).isLessThanOrEqualTo(2_000_000);
        TraceSummary s = TraceSummary.of(decisions, queue, 8, 16, 2_000_000, 5);
        assertThat(s.intervals()).isBetween(7, 9);
        // The measured round trip is the queue's: well above the path's 0.4 ms, at most the 120 ms queue.
        assertThat(s.meanRttSeconds()).isBetween(0.01, 0.13);
        assertThat(s.tcpRttSeconds()).isBetween(0.01, 0.13);
        assertThat(s.queueSeconds()).isBetween(0.0, 0.121);
        assertThat(s.tcpMeanCwnd()).isPositive();
    }

    @Test
    void theRoundTripOfTheEquationIsTheOnlyDifferenceBetweenTwoRunsOfOneSeed() {
        List<String> fixed = new ArrayList<>();
        List<String> fixedAgain = new ArrayList<>();
        LayeredTcpSimulation.run(LIVE, "fair", "fixed50", true, 3, fixed, new ArrayList<>());
        LayeredTcpSimulation.run(LIVE, "fair", "fixed50", true, 3, fixedAgain, new ArrayList<>());
        assertThat(fixedAgain).isEqualTo(fixed);
        assertThat(fixed).allMatch(l -> !l.contains("kind=INTERVAL") || l.contains("rtt=0.0500"));
    }

    @Test
    void refusesWhatCannotBeSimulated() {
        assertThatThrownBy(() -> new LayeredTcpSimulation.Setup(2_000_000, 0.1, 30, 1_000_000, 0.05, 40, 100_000,
                1000, 40)).hasMessageContaining("exterior");
        assertThatThrownBy(() -> LayeredTcpSimulation.rtt("ntp")).hasMessageContaining("unknown rtt");
    }
}
