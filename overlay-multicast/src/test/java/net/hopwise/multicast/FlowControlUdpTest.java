package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * Cost-Benefit flow control on running nodes over loopback UDP, a - b - c: an application thread
 * sends as fast as its sender lets it (waiting for writability, never for time), and every message
 * reaches the member once.
 */
class FlowControlUdpTest {
    @Test
    void aWritabilityDrivenSenderGetsEveryMessageThroughOnce() throws Exception {
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        NodeRuntime runtime = NodeRuntime.create(1);
        MulticastModule module = new MulticastModule().withCostBenefit(CostBenefitConfig.thesis());
        try {
            for (String name : List.of("a", "b", "c")) {
                nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0)
                        .defaultMetric(RoutingMetric.HOPS).module(module).build(), runtime));
            }
            link(nodes, "a", "b");
            link(nodes, "b", "c");
            for (OverlayNode node : nodes.values()) {
                Eventually.await(node.name() + " reaches every node",
                        () -> node.reachableNodes(RoutingMetric.HOPS).containsAll(nodes.keySet()));
            }
            Inbox atC = new Inbox();
            nodes.get("c").module(Multicast.class).join("feed", 3, atC);
            Multicast a = nodes.get("a").module(Multicast.class);
            Eventually.await("a sees c", () -> a.memberNodes("feed").equals(Set.of(NodeId.ofName("c"))));

            GroupSender sender = a.sender("feed", 3);
            Semaphore writable = new Semaphore(0);
            sender.onWritable(writable::release);
            int messages = 120;
            int blocked = 0;
            for (int i = 0; i < messages; ) {
                SendResult r = sender.send(ByteBuffer.allocate(500).putInt(0, i).array());
                if (r.accepted()) {
                    i++;
                } else {
                    assertThat(r.status()).isEqualTo(SendResult.Status.BLOCKED);
                    blocked++;
                    writable.drainPermits();
                    if (!sender.writable()) {
                        assertThat(writable.tryAcquire(30, TimeUnit.SECONDS)).as("writable again").isTrue();
                    }
                }
            }
            Eventually.await("c gets all", () -> atC.size() == messages);
            Set<Integer> seen = new HashSet<>();
            for (MulticastMessage m : atC.messages) {
                assertThat(seen.add(ByteBuffer.wrap(m.payload()).getInt(0))).isTrue();
            }
            assertThat(seen).hasSize(messages);
            assertThat(blocked).as("the fee and the first salary hold it back").isPositive();
            assertThat(sender.statistics().packets()).isEqualTo(messages);
            assertThat(sender.statistics().blocked()).isEqualTo(blocked);
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
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }
}
