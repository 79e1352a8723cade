package net.hopwise.overlay.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/** Real nodes on loopback UDP in a line a-b-c, the trace module installed on each. */
class TraceUdpTest {
    @Test
    void traceAcrossRunningNodes() throws Exception {
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        NodeRuntime runtime = NodeRuntime.create(1);
        try {
            for (String name : List.of("a", "b", "c")) {
                // A generous timeout: the machine running the tests may be busy, and no assertion is on time.
                nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0)
                        .defaultMetric(RoutingMetric.HOPS).module(new TraceModule(Duration.ofSeconds(20))).build(),
                        runtime));
            }
            link(nodes, "a", "b");
            link(nodes, "b", "c");
            for (OverlayNode node : nodes.values()) {
                Eventually.await(node.name() + " reaches every node",
                        () -> node.reachableNodes(RoutingMetric.HOPS).containsAll(nodes.keySet()));
            }

            assertThat(nodes.get("a").pipelineNames()).contains("trace");
            TraceResult result = nodes.get("a").module(TraceService.class).trace("c", RoutingMetric.HOPS)
                    .get(60, TimeUnit.SECONDS);

            System.out.println("loopback trace: " + result);
            assertThat(result.error()).isNull();
            assertThat(result.reached()).isTrue();
            assertThat(result.hops()).extracting(TraceHop::node).containsExactly("b", "c");
            assertThat(result.hops()).extracting(TraceHop::linkCost).containsExactly(1.0, 1.0);
            assertThat(result.hops()).allSatisfy(h -> assertThat(h.roundTripMillis()).isNotNull().isPositive());
            assertThat(nodes.get("a").module(TraceService.class).trace("nobody", RoutingMetric.HOPS)
                    .get(60, TimeUnit.SECONDS).error()).isEqualTo("unknown node nobody");

            TraceService stopped = nodes.get("a").module(TraceService.class);
            nodes.get("a").stop();
            assertThat(stopped.trace("c", RoutingMetric.HOPS)).as("answered at once, not left waiting")
                    .isCompletedWithValueMatching(r -> "the node is stopped".equals(r.error()));
        } finally {
            nodes.values().forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    private static void link(Map<String, OverlayNode> nodes, String x, String y) {
        nodes.get(x).addNeighbour(neighbour(nodes, y));
        nodes.get(y).addNeighbour(neighbour(nodes, x));
    }

    private static NeighbourConfig neighbour(Map<String, OverlayNode> nodes, String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1",
                nodes.get(name).localAddress().getPort()));
    }
}
