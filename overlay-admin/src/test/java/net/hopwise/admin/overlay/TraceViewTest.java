package net.hopwise.admin.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.trace.TraceHop;
import net.hopwise.overlay.trace.TraceResult;
import org.junit.jupiter.api.Test;

class TraceViewTest {
    @Test
    void anInfiniteLinkCostAndUnknownTimesBecomeNullsWhichJsonCanCarry() {
        TraceView v = TraceView.of(new TraceResult("a", "c", RoutingMetric.LOSS, false, List.of(
                new TraceHop(1, "b", Double.POSITIVE_INFINITY, null, 1.25),
                new TraceHop(2, "c", 0.01, 3.5, null)), null));
        assertThat(v.unit()).isEqualTo("-ln(1-p)");
        assertThat(v.hops()).containsExactly(new TraceView.Hop(1, "b", null, null, 1.25),
                new TraceView.Hop(2, "c", 0.01, 3.5, null));
        assertThat(v.reached()).isFalse();
        assertThat(v.error()).isNull();
    }

    @Test
    void anErrorResultKeepsItsReasonAndHasNoHops() {
        TraceView v = TraceView.of(new TraceResult("a", "x", RoutingMetric.HOPS, false, List.of(),
                "no route to x under HOPS"));
        assertThat(v.error()).isEqualTo("no route to x under HOPS");
        assertThat(v.hops()).isEmpty();
        assertThat(v.unit()).isEqualTo("hops");
    }
}
