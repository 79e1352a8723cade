package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import net.hopwise.overlay.routing.RoutingMetric;
import org.junit.jupiter.api.Test;

class RouteChangesTest {
    @Test
    void namesNewMovedAndLostDestinationsInOrder() {
        Map<String, String> before = Map.of("b", "b", "c", "c", "d", "c");
        Map<String, String> after = Map.of("b", "b", "c", "b", "e", "b");
        assertThat(RouteChanges.describe(RoutingMetric.LATENCY, before, after, 8)).isEqualTo(
                "routes by latency: c via b (was direct); d unreachable (was via c); e via b (new)");
    }

    @Test
    void unchangedRoutesSayNothing() {
        Map<String, String> same = Map.of("b", "b", "c", "b");
        assertThat(RouteChanges.describe(RoutingMetric.HOPS, same, Map.copyOf(same), 8)).isNull();
        assertThat(RouteChanges.describe(RoutingMetric.HOPS, Map.of(), Map.of(), 8)).isNull();
    }

    @Test
    void aLongListIsCutToACount() {
        Map<String, String> after = new TreeMap<>();
        for (int i = 0; i < 12; i++) {
            after.put("n" + (char) ('a' + i), "b");
        }
        assertThat(RouteChanges.describe(RoutingMetric.EXPECTED_LATENCY, Map.of(), after, 3)).isEqualTo(
                "routes by expected_latency: na via b (new); nb via b (new); nc via b (new); and 9 more");
    }
}
