package net.hopwise.overlay.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RouteView;
import org.junit.jupiter.api.Test;

/** How the source turns the answers it got into a result, answer by answer. */
class PendingTraceTest {
    private static final long MS = 1_000_000L;
    private static final NodeId S = NodeId.ofName("s");
    private static final NodeId B = NodeId.ofName("b");
    private static final NodeId C = NodeId.ofName("c");
    private static final NodeId D = NodeId.ofName("d");
    private static final NodeId E = NodeId.ofName("e");

    private final PendingTrace trace = new PendingTrace(1, "d", D, RoutingMetric.HOPS, List.of(S, B, C, D), 0,
            100 * MS, new CompletableFuture<>());

    private static TracePacket answer(int probe, int status, NodeId... hops) {
        List<TracePacket.Hop> records = java.util.Arrays.stream(hops).map(n -> new TracePacket.Hop(n, 1.0, 2 * MS))
                .toList();
        return new TracePacket(1, probe, RoutingMetric.HOPS, status, 0, S, D, records);
    }

    @Test
    void aRelayWithoutARouteOnEndsTheTraceThereWithAnError() {
        trace.answered(answer(1, TracePacket.HOP_REACHED, B), 3 * MS);
        assertThat(trace.complete()).isFalse();
        trace.answered(answer(2, TracePacket.NO_ROUTE, B), 4 * MS);
        assertThat(trace.complete()).as("probe 3 would end at b too: nothing more to wait for").isTrue();
        TraceResult result = trace.result("s", NAMES);
        assertThat(result.reached()).isFalse();
        assertThat(result.error()).isEqualTo("no route to d under HOPS beyond b");
        assertThat(result.hops()).extracting(TraceHop::node).containsExactly("b");
    }

    @Test
    void aShorterActualPathEndsAtTheDestination() {
        // The relays' routes skip c: the destination answers probes 2 and 3 at hop 2.
        trace.answered(answer(3, TracePacket.DESTINATION_REACHED, B, D), 9 * MS);
        trace.answered(answer(1, TracePacket.HOP_REACHED, B), 3 * MS);
        assertThat(trace.complete()).isFalse();
        trace.answered(answer(2, TracePacket.DESTINATION_REACHED, B, D), 8 * MS);
        assertThat(trace.complete()).isTrue();
        TraceResult result = trace.result("s", NAMES);
        assertThat(result.reached()).isTrue();
        assertThat(result.hops()).extracting(TraceHop::node).containsExactly("b", "d");
        assertThat(result.hops()).extracting(TraceHop::roundTripMillis).containsExactly(3.0, 8.0);
    }

    @Test
    void hopsNoAnswerNamedComeFromTheSourcesPathAndRoutes() {
        trace.answered(answer(1, TracePacket.HOP_REACHED, B), 3 * MS);
        TraceResult result = trace.result("s", NAMES);
        assertThat(result.reached()).isFalse();
        assertThat(result.error()).isNull();
        assertThat(result.hops()).containsExactly(new TraceHop(1, "b", 1.0, 2.0, 3.0),
                new TraceHop(2, "c", 20.0, null, null), new TraceHop(3, "d", 30.0, null, null));
    }

    @Test
    void answersOfOtherTracesOrForgedDestinationsDoNotMatch() {
        assertThat(trace.matches(answer(3, TracePacket.DESTINATION_REACHED, B, C, D))).isTrue();
        assertThat(trace.matches(answer(3, TracePacket.DESTINATION_REACHED, B, C, E))).isFalse();
        assertThat(trace.matches(answer(4, TracePacket.HOP_REACHED, B, C, D, E))).isFalse();
        TracePacket otherMetric = new TracePacket(1, 1, RoutingMetric.LATENCY, TracePacket.HOP_REACHED, 0, S, D,
                List.of(new TracePacket.Hop(B, 1.0, -1)));
        assertThat(trace.matches(otherMetric)).isFalse();
    }

    /** Names by id; link costs 20 for b-c and 30 for c-d, as if advertised. */
    private static final RouteView NAMES = new RouteView() {
        private final Map<NodeId, String> names = Map.of(S, "s", B, "b", C, "c", D, "d", E, "e");

        @Override
        public NodeId nextHop(NodeId destination, RoutingMetric metric) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<NodeId> path(NodeId destination, RoutingMetric metric) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double pathCost(NodeId destination, RoutingMetric metric) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double linkCost(NodeId from, NodeId to, RoutingMetric metric) {
            return from.equals(B) && to.equals(C) ? 20.0 : from.equals(C) && to.equals(D) ? 30.0
                    : Double.POSITIVE_INFINITY;
        }

        @Override
        public Map<NodeId, NodeId> tree(NodeId source, RoutingMetric metric) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String nameOf(NodeId node) {
            return names.get(node);
        }

        @Override
        public NodeId idOf(String name) {
            return NodeId.ofName(name);
        }

        @Override
        public java.util.Optional<NodeId> find(String name) {
            return java.util.Optional.of(NodeId.ofName(name));
        }
    };
}
