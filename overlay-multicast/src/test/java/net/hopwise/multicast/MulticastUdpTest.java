package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/** Real nodes on loopback UDP: a source a, a relay b, and members c and d behind it. */
class MulticastUdpTest {
    @Test
    void groupMessagesAcrossRunningNodes() throws Exception {
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        NodeRuntime runtime = NodeRuntime.create(1);
        try {
            for (String name : List.of("a", "b", "c", "d")) {
                nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0)
                        .defaultMetric(RoutingMetric.HOPS).module(new MulticastModule()).build(), runtime));
            }
            link(nodes, "a", "b");
            link(nodes, "b", "c");
            link(nodes, "b", "d");
            for (OverlayNode node : nodes.values()) {
                Eventually.await(node.name() + " reaches every node",
                        () -> node.reachableNodes(RoutingMetric.HOPS).containsAll(nodes.keySet()));
            }
            assertThat(nodes.get("a").pipelineNames()).contains("multicast");

            Inbox atC = new Inbox();
            Inbox atD = new Inbox();
            Membership c = nodes.get("c").module(Multicast.class).join("chat", 1, atC);
            nodes.get("d").module(Multicast.class).join("chat", 1, atD);
            Multicast a = nodes.get("a").module(Multicast.class);
            Eventually.await("a sees c and d as members", () -> a.memberNodes("chat")
                    .equals(Set.of(NodeId.ofName("c"), NodeId.ofName("d"))));

            byte[] big = new byte[4_000];
            new Random(7).nextBytes(big);
            assertThat(a.send("chat", 1, "hi".getBytes()).accepted()).isTrue();
            assertThat(a.send("chat", 1, big).accepted()).isTrue();
            Eventually.await("c and d get both", () -> atC.size() == 2 && atD.size() == 2);
            assertThat(atC.messages.get(1).payload()).isEqualTo(big);
            assertThat(atD.messages.get(0).payload()).isEqualTo("hi".getBytes());
            assertThat(atD.messages.get(0).sourceName()).isEqualTo("a");

            c.leave();
            Eventually.await("a sees c leave", () -> a.memberNodes("chat").equals(Set.of(NodeId.ofName("d"))));
            a.send("chat", 1, "after".getBytes());
            Eventually.await("d gets it", () -> atD.size() == 3);
            assertThat(atC.size()).isEqualTo(2);

            Multicast stopped = nodes.get("a").module(Multicast.class);
            nodes.get("a").stop();
            assertThat(stopped.send("chat", 1, new byte[1]).status()).isEqualTo(SendResult.Status.STOPPED);
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
