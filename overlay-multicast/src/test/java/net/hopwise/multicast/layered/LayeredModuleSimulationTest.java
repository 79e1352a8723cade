package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
}
