package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * Real nodes on loopback UDP, 1% loss on every link in both directions: a source a reaches members d
 * and e through relays b and c (each linked to both members); the relay carrying the stream stops in
 * the middle of it, and every member still gets every message once and in order.
 */
class ReliableMulticastUdpTest {
    private static final int MESSAGES = 300;

    @Test
    void everyMessageOnceInOrderThroughLossAndARelayCrash() throws Exception {
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        NodeRuntime runtime = NodeRuntime.create(1);
        try {
            for (String name : List.of("a", "b", "c", "d", "e")) {
                nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0)
                        .defaultMetric(RoutingMetric.HOPS).module(new MulticastModule()).build(), runtime));
            }
            List<String[]> links = List.of(new String[] {"a", "b"}, new String[] {"a", "c"}, new String[] {"b", "d"},
                    new String[] {"b", "e"}, new String[] {"c", "d"}, new String[] {"c", "e"});
            ImpairmentConfig lossy = ImpairmentConfig.builder().bernoulliLoss(0.01).build();
            for (String[] l : links) {
                link(nodes, l[0], l[1]);
                nodes.get(l[0]).impair(l[1], Direction.OUTBOUND, lossy);
                nodes.get(l[1]).impair(l[0], Direction.OUTBOUND, lossy);
            }
            for (OverlayNode node : nodes.values()) {
                Eventually.await(node.name() + " reaches every node",
                        () -> node.reachableNodes(RoutingMetric.HOPS).containsAll(nodes.keySet()));
            }
            Inbox atD = new Inbox();
            Inbox atE = new Inbox();
            nodes.get("d").module(Multicast.class).join("orders", 3, atD);
            nodes.get("e").module(Multicast.class).join("orders", 3, atE);
            Multicast a = nodes.get("a").module(Multicast.class);
            Eventually.await("a sees d and e as members",
                    () -> a.memberNodes("orders").equals(Set.of(NodeId.ofName("d"), NodeId.ofName("e"))));

            GroupSender sender = a.reliableSender("orders", 3, RoutingMetric.HOPS, SlowMemberPolicy.SLOW_GROUP);
            List<String> sent = new ArrayList<>();
            String relay = null;
            for (int i = 0; i < MESSAGES; i++) {
                if (i == MESSAGES / 2) {
                    relay = carrier(nodes);
                    nodes.get(relay).stop();
                }
                String text = "order " + i + " " + "y".repeat(i % 7 == 0 ? 3000 : 100);
                byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                Eventually.await("the sender takes message " + i, () -> sender.send(bytes).accepted());
                sent.add(text);
            }
            String crashed = relay;
            Eventually.await("d and e get all " + MESSAGES + " (relay " + crashed + " stopped)",
                    () -> atD.size() >= MESSAGES && atE.size() >= MESSAGES);
            assertThat(atD.texts()).isEqualTo(sent);
            assertThat(atE.texts()).isEqualTo(sent);
            assertThat(a.reliableStatistics("orders")).singleElement()
                    .satisfies(s -> assertThat(s.role()).isEqualTo("source"));
        } finally {
            nodes.values().forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    /** The relay d's packets come through now. */
    private static String carrier(Map<String, OverlayNode> nodes) {
        List<NodeId> path = nodes.get("a").path("d", RoutingMetric.HOPS);
        return path.get(1).equals(NodeId.ofName("b")) ? "b" : "c";
    }

    private static void link(Map<String, OverlayNode> nodes, String x, String y) {
        nodes.get(x).addNeighbour(neighbour(nodes, y));
        nodes.get(y).addNeighbour(neighbour(nodes, x));
    }

    private static NeighbourConfig neighbour(Map<String, OverlayNode> nodes, String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }
}
