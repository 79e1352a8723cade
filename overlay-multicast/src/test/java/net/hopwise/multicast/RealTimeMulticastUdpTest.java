package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
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
import net.hopwise.overlay.realtime.RealTimeConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RealTimeStatistics;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * Real nodes on loopback UDP with 5% loss each way on every link: source a, relay b (a member too)
 * and members c and d behind it. The links' real-time channels recover what they lose.
 */
class RealTimeMulticastUdpTest {
    private static final int PACKETS = 300;

    @Test
    void aRealTimeStreamReachesEveryMemberWithItsLossesRecovered() throws Exception {
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        NodeRuntime runtime = NodeRuntime.create(1);
        // The links keep as much history as the stream's deadline below. With the default 100 ms, a stall
        // of the nodes longer than that on a test machine busy with other suites leaves the losses at the
        // tail of a batch (seen only once the next batch comes) unrecoverable; the likeliest cause of the
        // one CI failure of this test ("c gets nearly every packet" gave up, 2026-11-25). The protocol's
        // own timing is tested on virtual time in RealTimeMulticastTest.
        RealTimeConfig realTime = RealTimeConfig.builder().history(Duration.ofSeconds(2)).build();
        try {
            for (String name : List.of("a", "b", "c", "d")) {
                nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0)
                        .defaultMetric(RoutingMetric.HOPS).realTime(realTime).module(new MulticastModule()).build(), runtime));
            }
            ImpairmentConfig lossy = ImpairmentConfig.builder().bernoulliLoss(0.05).build();
            for (String[] l : List.of(new String[] {"a", "b"}, new String[] {"b", "c"}, new String[] {"b", "d"})) {
                link(nodes, l[0], l[1]);
                nodes.get(l[0]).impair(l[1], Direction.OUTBOUND, lossy);
                nodes.get(l[1]).impair(l[0], Direction.OUTBOUND, lossy);
            }
            for (OverlayNode node : nodes.values()) {
                Eventually.await(node.name() + " reaches every node",
                        () -> node.reachableNodes(RoutingMetric.HOPS).containsAll(nodes.keySet()));
            }
            Map<String, Inbox> inboxes = new LinkedHashMap<>();
            for (String m : List.of("b", "c", "d")) {
                inboxes.put(m, new Inbox());
                nodes.get(m).module(Multicast.class).join("call", 5004, inboxes.get(m));
            }
            Multicast a = nodes.get("a").module(Multicast.class);
            Eventually.await("a sees b, c and d as members", () -> a.memberNodes("call")
                    .equals(Set.of(NodeId.ofName("b"), NodeId.ofName("c"), NodeId.ofName("d"))));

            // A generous deadline: a loaded test machine must not make packets late; recovery is the point.
            RealTimeGroupSender voice = a.realTimeSender("call", 5004, null, Duration.ofSeconds(2));
            // Paced by the members, as a codec's clock would pace it: a burst would wait in the source's
            // queue past the links' 100 ms history and leave nothing to recover.
            for (int i = 0; i < PACKETS; i++) {
                assertThat(voice.send(new byte[160]).accepted()).isTrue();
                if (i % 10 == 9) {
                    // Most of the batch: its last packets' losses show only once the next batch comes.
                    long most = i - 4;
                    Eventually.await("every member has heard of packet " + most, () -> inboxes.keySet().stream()
                            .allMatch(m -> heardOf(nodes.get(m)) >= most));
                }
            }
            // 2p^2 - 3p^3 per hop: about 3 of 300 lost at a member two hops away; without recovery 15 at b, 29 at c.
            for (String m : inboxes.keySet()) {
                Eventually.await(m + " gets nearly every packet", () -> inboxes.get(m).size() >= PACKETS - 10,
                        () -> describe(nodes, inboxes));
            }
            long recovered = 0;
            for (String m : inboxes.keySet()) {
                List<RealTimeMemberStatistics> streams = nodes.get(m).module(Multicast.class).realTimeStatistics("call");
                assertThat(streams).singleElement().satisfies(s -> assertThat(s.sourceName()).isEqualTo("a"));
                RealTimeStatistics s = streams.get(0).stats();
                assertThat(s.duplicates()).as(m).isZero();
                assertThat(s.late()).as(m).isZero();
                recovered += s.recovered();
            }
            assertThat(recovered).as("packets recovered by the links").isPositive();

            Multicast stopped = nodes.get("a").module(Multicast.class);
            nodes.get("a").stop();
            assertThat(voice.send(new byte[1]).status()).isEqualTo(SendResult.Status.STOPPED);
            assertThat(stopped.realTimeStatistics("call")).isEmpty();
        } finally {
            nodes.values().forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    /** What each member got and what its stream statistics say, for a wait that gives up. */
    private static String describe(Map<String, OverlayNode> nodes, Map<String, Inbox> inboxes) {
        StringBuilder b = new StringBuilder();
        for (String m : inboxes.keySet()) {
            b.append(m).append(": delivered ").append(inboxes.get(m).size()).append(", ")
                    .append(nodes.get(m).module(Multicast.class).realTimeStatistics("call")).append('\n');
        }
        return b.toString();
    }

    /** Packets of the stream a member node received or knows it lost: up to the highest it saw. */
    private static long heardOf(OverlayNode node) {
        List<RealTimeMemberStatistics> s = node.module(Multicast.class).realTimeStatistics("call");
        return s.isEmpty() ? 0 : s.get(0).stats().expected();
    }

    private static void link(Map<String, OverlayNode> nodes, String x, String y) {
        nodes.get(x).addNeighbour(neighbour(nodes, y));
        nodes.get(y).addNeighbour(neighbour(nodes, x));
    }

    private static NeighbourConfig neighbour(Map<String, OverlayNode> nodes, String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }
}
