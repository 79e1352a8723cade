package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import net.hopwise.overlay.routing.RoutingMetric;
import org.junit.jupiter.api.Test;

class RouteChangesTest {
    @Test
    void namesNewMovedAndLostDestinationsInOrder() {
        Map<String, String> before = Map.of("b", "b", "c", "c", "d", "c");
        Map<String, String> after = Map.of("b", "b", "c", "b", "e", "b");
        assertThat(RouteChanges.describe(before, after, 8)).isEqualTo(
                "c via b (was direct); d unreachable (was via c); e via b (new)");
    }

    @Test
    void unchangedRoutesSayNothing() {
        Map<String, String> same = Map.of("b", "b", "c", "b");
        assertThat(RouteChanges.describe(same, Map.copyOf(same), 8)).isNull();
        assertThat(RouteChanges.describe(Map.of(), Map.of(), 8)).isNull();
    }

    @Test
    void aLongListIsCutToACount() {
        Map<String, String> after = new TreeMap<>();
        for (int i = 0; i < 12; i++) {
            after.put("n" + (char) ('a' + i), "b");
        }
        assertThat(RouteChanges.describe(Map.of(), after, 3)).isEqualTo(
                "na via b (new); nb via b (new); nc via b (new); and 9 more");
    }

    @Test
    void metricsThatAgreeShareOneLine() {
        Map<RoutingMetric, String> same = new EnumMap<>(RoutingMetric.class);
        for (RoutingMetric m : RoutingMetric.values()) {
            same.put(m, "c via b (was direct)");
        }
        assertThat(RouteChanges.lines(same)).containsExactly("routes by every metric: c via b (was direct)");

        Map<RoutingMetric, String> differ = new EnumMap<>(same);
        differ.put(RoutingMetric.LATENCY, "c via d (was direct)");
        assertThat(RouteChanges.lines(differ)).hasSize(RoutingMetric.values().length)
                .contains("routes by latency: c via d (was direct)", "routes by hops: c via b (was direct)");

        Map<RoutingMetric, String> one = new EnumMap<>(RoutingMetric.class);
        one.put(RoutingMetric.LOSS, "c via b (was direct)");
        assertThat(RouteChanges.lines(one)).containsExactly("routes by loss: c via b (was direct)");
    }
}
