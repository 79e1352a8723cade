package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.multicast.GroupId;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.spi.DropCounter;
import org.junit.jupiter.api.Test;

/**
 * The layered service of the real multicast module on simulated nodes: a source s behind a relay r
 * that fans out to receivers behind links of 150 Kbit/s (m1), 300 Kbit/s (m2) and no limit (m3).
 */
class LayeredModuleSimulationTest {
    static final String GROUP = "tv";
    static final int PORT = 5004;
    /**
     * 8 layers of 50 Kbit/s. A pair's dispersion measures 512 of the 540 bytes a datagram takes on
     * the wire (IP and UDP headers), so m1 estimates 142 Kbit/s and fits 2 layers, m2 284 Kbit/s and
     * fits 5, m3 takes all 8.
     */
    static final LayerRates LAYERS = LayerRates.equal(8, 50_000);
    static final Map<String, Integer> EXPECTED = Map.of("m1", 1, "m2", 4, "m3", 7);

    static LinkSpec link(long bps) {
        return LinkSpec.builder().delay(Duration.ofMillis(5)).bandwidthBitsPerSecond(bps).build();
    }

    static SimNetwork star(long seed) {
        SimNetwork net = new SimNetwork(seed, b -> b.module(new MulticastModule()));
        for (String n : List.of("s", "r", "m1", "m2", "m3")) {
            net.node(n);
        }
        net.link("s", "r", link(0));
        net.link("r", "m1", link(150_000), link(0));
        net.link("r", "m2", link(300_000), link(0));
        net.link("r", "m3", link(0));
        net.start();
        net.runFor(Duration.ofSeconds(10));
        return net;
    }

    static LayeredService service(SimNetwork net, String node) {
        return net.engine(node).module(LayeredMulticast.class).service();
    }

    static long drops(SimNetwork net, String node, String reason) {
        return net.engine(node).counters().moduleDrops().stream().filter(c -> c.reason().equals(reason))
                .mapToLong(DropCounter::count).findFirst().orElse(0);
    }

    /** The layers {@code at} forwards to {@code child} as the highest one (-1: none), checking they are 0..that. */
    static int forwarded(SimNetwork net, String at, String child, int sessionId) {
        SessionRelay relay = service(net, at).relay(NodeId.ofName("s"), sessionId);
        int level = -1;
        for (int k = 0; relay != null && k < relay.layers(); k++) {
            if (relay.forwarding().forwards(NodeId.ofName(child).value(), k)) {
                assertThat(level).as("the layers %s forwards to %s are cumulative", at, child).isEqualTo(k - 1);
                level = k;
            }
        }
        return level;
    }

    private static String text(LayeredMessage m) {
        return new String(m.payload(), StandardCharsets.UTF_8);
    }

    @Test
    void eachReceiverSettlesAtItsPathsLevelAndTheRelaysForwardExactlyWhatIsHeld() {
        try (SimNetwork net = star(3)) {
            Map<String, LayeredReceiver> receivers = new LinkedHashMap<>();
            Map<String, List<LayeredMessage>> got = new LinkedHashMap<>();
            Map<String, List<EraDecision>> decisions = new LinkedHashMap<>();
            for (String m : EXPECTED.keySet().stream().sorted().toList()) {
                List<LayeredMessage> inbox = new ArrayList<>();
                got.put(m, inbox);
                decisions.put(m, new ArrayList<>());
                net.nodeNamed(m).interact(stack -> {
                    LayeredReceiver r = stack.module(Multicast.class).joinLayered(GROUP, PORT, inbox::add);
                    r.onDecision(decisions.get(m)::add);
                    receivers.put(m, r);
                });
            }
            net.runFor(Duration.ofSeconds(2));
            assertThat(receivers.values()).as("nobody joins before an announcement")
                    .allSatisfy(r -> assertThat(r.level()).isEqualTo(-1));
            assertThat(service(net, "r").sessions()).isZero();

            LayeredSender[] sender = new LayeredSender[1];
            net.nodeNamed("s").interact(stack -> sender[0] = stack.module(Multicast.class)
                    .openLayeredSender(GROUP, PORT, LAYERS));
            int session = sender[0].sessionId();
            net.runFor(Duration.ofSeconds(4));
            long settled = net.now();
            net.runFor(Duration.ofSeconds(6));
            for (Map.Entry<String, LayeredReceiver> e : receivers.entrySet()) {
                LayeredReceiver r = e.getValue();
                assertThat(r.level()).as("level at %s: %s", e.getKey(), r.history()).isEqualTo(EXPECTED.get(e.getKey()));
                assertThat(r.rateBitsPerSecond()).isEqualTo(LAYERS.cumulative(r.level()));
                assertThat(r.history()).as("no move after %s s at %s", settled / 1e9, e.getKey())
                        .allSatisfy(c -> assertThat(c.nowNanos()).isLessThan(settled));
                assertThat(r.source()).isEqualTo(NodeId.ofName("s"));
                List<EraDecision> late = decisions.get(e.getKey()).stream()
                        .filter(d -> d.nowNanos() > settled && d.kind() == EraDecision.Kind.INTERVAL).toList();
                assertThat(late).isNotEmpty().allSatisfy(d -> assertThat(d.lossRate()).isLessThan(0.01));
                // The relay forwards to each receiver exactly the layers it holds.
                assertThat(forwarded(net, "r", e.getKey(), session)).isEqualTo(r.level());
            }
            assertThat(forwarded(net, "s", "r", session)).as("the source sends r what its subtree holds").isEqualTo(7);

            // The application's bytes ride their layer's packets to those who hold it.
            net.nodeNamed("s").interact(stack -> {
                assertThat(sender[0].offer(0, "base".getBytes(StandardCharsets.UTF_8))).isTrue();
                assertThat(sender[0].offer(6, "sixth".getBytes(StandardCharsets.UTF_8))).isTrue();
            });
            net.runFor(Duration.ofSeconds(1));
            assertThat(got.get("m1")).extracting(LayeredModuleSimulationTest::text).containsExactly("base");
            assertThat(got.get("m3")).extracting(LayeredModuleSimulationTest::text).containsExactlyInAnyOrder("base", "sixth");
            assertThat(got.get("m3")).allSatisfy(m -> assertThat(m.source()).isEqualTo(NodeId.ofName("s")));

            // A slower path mid-run: m2 follows it down.
            net.changeLink("r", "m2", link(150_000));
            net.runFor(Duration.ofSeconds(4));
            assertThat(receivers.get("m2").level()).isEqualTo(1);
            assertThat(forwarded(net, "r", "m2", session)).isEqualTo(1);

            // Leaves prune at once, as far up as nobody else needs the layers.
            net.nodeNamed("m3").interact(stack -> receivers.get("m3").leave());
            net.runFor(Duration.ofMillis(100));
            assertThat(forwarded(net, "r", "m3", session)).isEqualTo(-1);
            assertThat(forwarded(net, "s", "r", session)).isEqualTo(1);
            net.nodeNamed("m1").interact(stack -> receivers.get("m1").leave());
            net.nodeNamed("m2").interact(stack -> receivers.get("m2").leave());
            net.runFor(Duration.ofMillis(100));
            assertThat(forwarded(net, "s", "r", session)).isEqualTo(-1);
            assertThat(service(net, "r").sessions()).as("the relay forgot the session").isZero();
            long sentBefore = sender[0].packetsSent();
            net.nodeNamed("s").interact(stack -> sender[0].close());
            net.runFor(Duration.ofSeconds(1));
            assertThat(sender[0].packetsSent()).isEqualTo(sentBefore);
            for (String n : List.of("s", "r", "m1", "m2", "m3")) {
                assertThat(drops(net, n, "layered_malformed")).isZero();
                assertThat(drops(net, n, "layered_handler_error")).isZero();
            }
        }
    }

    /** What {@link LayeredMulticast#relays()} answers at {@code node}, once the node's thread ran it. */
    static List<LayeredRelayView> relays(SimNetwork net, String node) throws Exception {
        var answer = net.engine(node).module(LayeredMulticast.class).relays();
        net.runFor(Duration.ofMillis(1));
        assertThat(answer).as("answered on %s's thread", node).isDone();
        return answer.get();
    }

    @Test
    void theRelaysViewShowsEachChildsLevelAndCountsWhatWentToItPerLayer() throws Exception {
        try (SimNetwork net = star(5)) {
            Map<String, LayeredReceiver> receivers = new LinkedHashMap<>();
            for (String m : EXPECTED.keySet().stream().sorted().toList()) {
                net.nodeNamed(m).interact(stack -> receivers.put(m,
                        stack.module(Multicast.class).joinLayered(GROUP, PORT, x -> { })));
            }
            net.runFor(Duration.ofSeconds(1));
            assertThat(relays(net, "r")).as("no session before a source").isEmpty();
            LayeredSender[] sender = new LayeredSender[1];
            net.nodeNamed("s").interact(stack -> sender[0] = stack.module(Multicast.class)
                    .openLayeredSender(GROUP, PORT, LAYERS));
            net.runFor(Duration.ofSeconds(6));

            List<LayeredRelayView> atR = relays(net, "r");
            assertThat(atR).hasSize(1);
            LayeredRelayView session = atR.get(0);
            assertThat(session.source()).isEqualTo(NodeId.ofName("s"));
            assertThat(session.sessionId()).isEqualTo(sender[0].sessionId());
            assertThat(session.group()).isEqualTo(GroupId.ofName(GROUP));
            assertThat(session.port()).isEqualTo(PORT);
            assertThat(session.upstream()).isEqualTo(NodeId.ofName("s"));
            assertThat(session.localReceivers()).isZero();
            assertThat(session.children()).extracting(LayeredRelayView.Child::node)
                    .containsExactlyInAnyOrder(NodeId.ofName("m1"), NodeId.ofName("m2"), NodeId.ofName("m3"));
            int body = -1;
            for (LayeredRelayView.Child c : session.children()) {
                String name = EXPECTED.keySet().stream().filter(m -> NodeId.ofName(m).equals(c.node())).findFirst()
                        .orElseThrow();
                assertThat(c.level()).as("%s's level as the relay forwards it", name).isEqualTo(receivers.get(name).level())
                        .isEqualTo(EXPECTED.get(name));
                // Every layer held went there; each packet of one session is one size.
                assertThat(c.layers()).extracting(LayeredRelayView.LayerTraffic::layer).containsAll(
                        java.util.stream.IntStream.rangeClosed(0, c.level()).boxed().toList());
                for (LayeredRelayView.LayerTraffic t : c.layers()) {
                    assertThat(t.packets()).isPositive();
                    body = body < 0 ? (int) (t.bytes() / t.packets()) : body;
                    assertThat(t.bytes()).as("%s layer %d", name, t.layer()).isEqualTo(t.packets() * body);
                }
            }
            assertThat(relays(net, "s")).singleElement().satisfies(v -> {
                assertThat(v.upstream()).as("the source takes its session from nobody").isNull();
                assertThat(v.children()).singleElement().satisfies(c -> {
                    assertThat(c.node()).isEqualTo(NodeId.ofName("r"));
                    assertThat(c.level()).as("r's subtree holds every layer").isEqualTo(LAYERS.count() - 1);
                });
            });

            // Counted exactly: once the source stops and the links drain, what the relay sent m3 (a
            // path without a cap, where nothing is lost and no layer is ever left) is what m3's
            // receiver got, and the relay got from s all it sent on.
            // Read at r, then at s a millisecond on: r cannot have sent a child more of a layer than s sent r.
            List<LayeredRelayView.Child> fromR = relays(net, "r").get(0).children();
            LayeredRelayView.Child toR = relays(net, "s").get(0).children().get(0);
            for (LayeredRelayView.Child c : fromR) {
                for (LayeredRelayView.LayerTraffic t : c.layers()) {
                    long fromS = toR.layers().stream().filter(x -> x.layer() == t.layer())
                            .mapToLong(LayeredRelayView.LayerTraffic::packets).sum();
                    assertThat(t.packets()).as("r sent %s no more of layer %d than it got", c.node(), t.layer())
                            .isLessThanOrEqualTo(fromS);
                }
            }
            assertThat(receivers.get("m3").history()).as("m3 never left a layer while packets came")
                    .extracting(LevelChange::level).isSorted();
            net.nodeNamed("s").interact(stack -> sender[0].close());
            net.runFor(Duration.ofSeconds(1));
            LayeredRelayView.Child m3 = relays(net, "r").get(0).children().stream()
                    .filter(c -> c.node().equals(NodeId.ofName("m3"))).findFirst().orElseThrow();
            assertThat(m3.packets()).isEqualTo(receivers.get("m3").packetsReceived()).isPositive();

            // A child that leaves everything goes from the view with its counts.
            net.nodeNamed("m3").interact(stack -> receivers.get("m3").leave());
            net.runFor(Duration.ofMillis(100));
            assertThat(relays(net, "r").get(0).children()).extracting(LayeredRelayView.Child::node)
                    .doesNotContain(NodeId.ofName("m3"));
        }
    }
}
