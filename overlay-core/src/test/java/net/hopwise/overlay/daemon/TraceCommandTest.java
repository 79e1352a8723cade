package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.trace.TraceHop;
import net.hopwise.overlay.trace.TraceResult;
import org.junit.jupiter.api.Test;

/** How {@code --trace} prints a trace: a summary line, then a table whose columns line up. */
class TraceCommandTest {
    @Test
    void aReachedTraceIsASummaryAndOneAlignedRowPerHop() {
        TraceResult r = new TraceResult("a", "denver", RoutingMetric.LATENCY, true, List.of(
                new TraceHop(1, "b", 3.25, 6.5, 6.61),
                new TraceHop(2, "denver", 40.0, 80.125, 87.0)), null);
        assertThat(TraceCommand.lines(r)).containsExactly(
                "trace from a to denver under LATENCY: reached in 2 hops",
                "hop  node    link cost (ms)  link RTT ms  round trip ms",
                "  1  b                 3.25         6.50           6.61",
                "  2  denver           40.00        80.13          87.00");
    }

    @Test
    void unknownValuesAreDashesAnUnansweredProbeAStarAndAnUnusableLinkInf() {
        TraceResult r = new TraceResult("a", "c", RoutingMetric.LOSS, false, List.of(
                new TraceHop(1, "b", Double.POSITIVE_INFINITY, null, 1.5),
                new TraceHop(2, "c", 0.0101, 2.0, null)), null);
        List<String> lines = TraceCommand.lines(r);
        assertThat(lines.get(0)).isEqualTo("trace from a to c under LOSS: not reached (no answer from c) in 2 hops");
        assertThat(lines.get(1)).contains("link cost (-ln(1-p))");
        assertThat(lines.get(2).split("\\s+")).containsExactly("", "1", "b", "inf", "-", "1.50");
        assertThat(lines.get(3).split("\\s+")).containsExactly("", "2", "c", "0.0101", "2.00", "*");
    }

    @Test
    void aTraceThatCouldNotRunSaysWhyWithoutATable() {
        TraceResult r = new TraceResult("a", "x", RoutingMetric.HOPS, false, List.of(), "no route to x under HOPS");
        assertThat(TraceCommand.lines(r)).containsExactly(
                "trace from a to x under HOPS: not reached (no route to x under HOPS)");
        TraceResult one = new TraceResult("a", "b", RoutingMetric.HOPS, true,
                List.of(new TraceHop(1, "b", 1, 0.4, 0.5)), null);
        assertThat(TraceCommand.lines(one)).first().isEqualTo("trace from a to b under HOPS: reached in 1 hop");
        assertThat(TraceCommand.lines(one).get(1)).contains("link cost (hops)");
        assertThat(TraceCommand.lines(one).get(2).split("\\s+")).containsExactly("", "1", "b", "1", "0.40", "0.50");
    }
}
