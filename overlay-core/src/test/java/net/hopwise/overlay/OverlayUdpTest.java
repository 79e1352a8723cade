package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Five real nodes on loopback UDP in one JVM: a ring a-b-c-d-e-a with a chord a-c. Routing by hop
 * count makes the expected paths exact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OverlayUdpTest {
    private static final List<String> NAMES = List.of("a", "b", "c", "d", "e");
    private static final String[][] LINKS = {{"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "e"}, {"e", "a"}, {"a", "c"}};

    private NodeRuntime runtime;
    private final Map<String, OverlayNode> nodes = new LinkedHashMap<>();
    private final Map<String, OverlayPort> ports = new ConcurrentHashMap<>();
    private final Map<String, Integer> udpPorts = new LinkedHashMap<>();
    private final ConcurrentLinkedQueue<String> inbox = new ConcurrentLinkedQueue<>();

    @BeforeAll
    void startOverlay() {
        runtime = NodeRuntime.create(2);
        for (String name : NAMES) {
            start(name, 0);
        }
        for (String[] link : LINKS) {
            nodes.get(link[0]).addNeighbour(neighbour(link[1]));
            nodes.get(link[1]).addNeighbour(neighbour(link[0]));
        }
    }

    private void start(String name, int port) {
        OverlayNode node = OverlayNode.start(NodeConfig.builder(name).loopback(port)
                .defaultMetric(RoutingMetric.HOPS).build(), runtime);
        nodes.put(name, node);
        udpPorts.put(name, node.localAddress().getPort());
        ports.put(name, node.openPort(7, m -> inbox.add(m.sourceName() + ">" + name + ":"
                + new String(m.payloadBytes()))));
    }

    private NeighbourConfig neighbour(String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", udpPorts.get(name)));
    }

    @AfterAll
    void stopOverlay() {
        nodes.values().forEach(OverlayNode::stop);
        runtime.close();
    }

    private List<String> path(String from, String to) {
        List<String> names = new ArrayList<>();
        for (NodeId id : nodes.get(from).path(to, RoutingMetric.HOPS)) {
            names.add(NAMES.stream().filter(n -> NodeId.ofName(n).equals(id)).findFirst().orElseThrow());
        }
        return names;
    }

    /** What a rare failure needs to be read: what arrived, and each node's drops and routes. */
    private String describe() {
        StringBuilder sb = new StringBuilder("delivered " + inbox);
        for (String n : NAMES) {
            OverlayNode node = nodes.get(n);
            sb.append("; ").append(n).append(" drops");
            for (DropReason r : DropReason.values()) {
                long c = node.counters().drops(r);
                if (c > 0) {
                    sb.append(' ').append(r).append('=').append(c);
                }
            }
            sb.append(", forwarded ").append(node.counters().packetsForwarded()).append(", paths");
            for (String to : NAMES) {
                if (!to.equals(n)) {
                    sb.append(' ').append(to).append(path(n, to));
                }
            }
        }
        return sb.toString();
    }

    private void awaitFullReachability() {
        for (String n : NAMES) {
            Eventually.await(n + " reaches every node",
                    () -> nodes.get(n).reachableNodes(RoutingMetric.HOPS).containsAll(NAMES));
        }
    }

    /**
     * Messages here are best effort, as UDP's: one lost on the way (a socket buffer overflowing on a
     * loaded machine, a route still settling at a hop) is not resent by the overlay. So, as an
     * application would, a pair whose message has not arrived within a few seconds sends it again, at
     * most three times; every pair must get through, and any round beyond the first is printed with
     * the nodes' drops, so that a loss that recurs is seen for what it is.
     */
    @Test
    @Order(1)
    void allPairsExchangeMessages() {
        awaitFullReachability();
        int total = NAMES.size() * (NAMES.size() - 1);
        for (int round = 1; round <= 3 && Set.copyOf(inbox).size() < total; round++) {
            Set<String> got = Set.copyOf(inbox);
            for (String from : NAMES) {
                for (String to : NAMES) {
                    if (!from.equals(to) && !got.contains(from + ">" + to + ":hi")) {
                        assertThat(ports.get(from).send(to, 7, "hi".getBytes())).isEqualTo(SendResult.ACCEPTED);
                    }
                }
            }
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (Set.copyOf(inbox).size() < total && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(2_000_000);
            }
            if (Set.copyOf(inbox).size() < total) {
                System.out.println("allPairsExchangeMessages: after round " + round + ", " + describe());
            }
        }
        Eventually.await(total + " messages delivered", () -> Set.copyOf(inbox).size() >= total, this::describe);
        Set<String> got = Set.copyOf(inbox);
        for (String from : NAMES) {
            for (String to : NAMES) {
                if (!from.equals(to)) {
                    assertThat(got).contains(from + ">" + to + ":hi");
                }
            }
        }
        // Reachability can come before the last link-state update: the shortest path settles after it.
        Eventually.await("b's path to e settles on b-a-e", () -> path("b", "e").equals(List.of("b", "a", "e")));
        assertThat(nodes.get("a").counters().packetsForwarded()).isPositive();
    }

    @Test
    @Order(2)
    void largeMessagesCrossTheOverlayIntact() {
        byte[] big = new byte[64 * 1024];
        new Random(3).nextBytes(big);
        List<byte[]> got = new java.util.concurrent.CopyOnWriteArrayList<>();
        OverlayPort sink = nodes.get("d").openPort(9, m -> got.add(m.payloadBytes()));
        assertThat(ports.get("b").send("d", 9, big)).isEqualTo(SendResult.ACCEPTED);
        Eventually.await("64 KiB message at d", () -> !got.isEmpty());
        assertThat(got.get(0)).isEqualTo(big);
        sink.close();
    }

    @Test
    @Order(3)
    void malformedDatagramsChangeNothingButTheDropCounter() throws Exception {
        OverlayNode c = nodes.get("c");
        long dropsBefore = c.counters().totalDrops();
        long forwardedBefore = c.counters().packetsForwarded();
        long deliveredBefore = c.counters().messagesDelivered();
        List<String> pathBefore = path("c", "e");
        Random random = new Random(11);
        int junk = 200;
        try (DatagramChannel raw = DatagramChannel.open()) {
            InetSocketAddress target = new InetSocketAddress("127.0.0.1", udpPorts.get("c"));
            for (int i = 0; i < junk; i++) {
                byte[] bytes = new byte[random.nextInt(1400)];
                random.nextBytes(bytes);
                if (i % 2 == 0 && bytes.length >= 4) {
                    // Half of them look like ours at first glance.
                    bytes[0] = 0x48;
                    bytes[1] = 0x57;
                    bytes[2] = 1;
                    bytes[3] = (byte) (1 + random.nextInt(4));
                }
                raw.send(ByteBuffer.wrap(bytes), target);
            }
        }
        Eventually.await("every junk datagram counted",
                () -> c.counters().totalDrops() - dropsBefore >= junk);
        assertThat(c.counters().totalDrops() - dropsBefore).isEqualTo(junk);
        assertThat(c.counters().packetsForwarded()).isEqualTo(forwardedBefore);
        assertThat(c.counters().messagesDelivered()).isEqualTo(deliveredBefore);
        assertThat(c.counters().drops(DropReason.BAD_MAGIC)).isPositive();
        assertThat(path("c", "e")).isEqualTo(pathBefore);
        assertThat(c.neighbours()).allSatisfy(n -> assertThat(n.status().name()).isEqualTo("UP"));
    }

    @Test
    @Order(4)
    void stoppedNodeIsRoutedAroundAndRestartRestoresTheRoute() {
        assertThat(path("b", "e")).containsExactly("b", "a", "e");
        int port = udpPorts.get("a");
        nodes.remove("a").stop();
        Eventually.await("b routes to e around a", () -> path("b", "e").equals(List.of("b", "c", "d", "e")));
        inbox.clear();
        assertThat(ports.get("b").send("e", 7, "detour".getBytes())).isEqualTo(SendResult.ACCEPTED);
        Eventually.await("message over the detour", () -> inbox.contains("b>e:detour"));

        start("a", port);
        OverlayNode a = nodes.get("a");
        for (String[] link : LINKS) {
            if (link[0].equals("a")) {
                a.addNeighbour(neighbour(link[1]));
            } else if (link[1].equals("a")) {
                a.addNeighbour(neighbour(link[0]));
            }
        }
        Eventually.await("b routes to e over a again", () -> path("b", "e").equals(List.of("b", "a", "e")));
        awaitFullReachability();
    }
}
