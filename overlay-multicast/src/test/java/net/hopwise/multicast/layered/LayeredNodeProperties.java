package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Graft and prune on real nodes: on a random tree of simulated nodes with links of random rates,
 * after random joins and leaves of layered receivers and the level changes their paths and changes
 * of the links' rates cause, each
 * link carries exactly the layers someone downstream holds, and a node with nobody downstream keeps
 * no state of the session.
 */
class LayeredNodeProperties {
    private static final long[] RATES = {100_000, 150_000, 300_000, 0};
    private static final LayerRates LAYERS = LayerRates.equal(8, 50_000);
    private static final long MS = 1_000_000L;

    private record Receiver(int node, LayeredReceiver handle) {}

    @Property(tries = 8)
    void eachLinkCarriesExactlyTheLayersHeldDownstream(@ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = 3 + random.nextInt(4);
        int[] parent = new int[n];
        try (SimNetwork net = new SimNetwork(seed, b -> b.module(new MulticastModule()))) {
            for (int i = 0; i < n; i++) {
                net.node("n" + i);
            }
            for (int i = 1; i < n; i++) {
                parent[i] = random.nextInt(i);
                long rate = RATES[random.nextInt(RATES.length)];
                net.link("n" + parent[i], "n" + i, LayeredModuleSimulationTest.link(rate),
                        LayeredModuleSimulationTest.link(0));
            }
            net.start();
            net.runFor(Duration.ofSeconds(10));
            LayeredSender[] sender = new LayeredSender[1];
            net.nodeNamed("n0").interact(s -> sender[0] = s.module(Multicast.class).openLayeredSender("g", 1, LAYERS));
            List<Receiver> receivers = new ArrayList<>();
            for (int step = 0; step < 6 + random.nextInt(6); step++) {
                int action = random.nextInt(4);
                if (action == 3) {
                    // A path slows down or speeds up: receivers below move, and their relays with them.
                    int c = 1 + random.nextInt(n - 1);
                    net.changeLink("n" + parent[c], "n" + c, LayeredModuleSimulationTest.link(RATES[random.nextInt(RATES.length)]));
                } else if (receivers.isEmpty() || action < 2) {
                    int at = 1 + random.nextInt(n - 1);
                    net.nodeNamed("n" + at).interact(s -> receivers.add(
                            new Receiver(at, s.module(Multicast.class).joinLayered("g", 1, m -> { }))));
                } else {
                    Receiver r = receivers.remove(random.nextInt(receivers.size()));
                    net.nodeNamed("n" + r.node()).interact(s -> r.handle().leave());
                }
                net.runFor(Duration.ofMillis(200 + random.nextInt(1500)));
            }
            net.runFor(Duration.ofSeconds(3));
            // Between moves: subscriptions cross a hop in milliseconds, a level moves at most once an interval.
            for (int i = 0; i < 100 && lastMove(receivers) > net.now() - 300 * MS; i++) {
                net.runFor(Duration.ofMillis(50));
            }
            for (int c = 1; c < n; c++) {
                BitSet expected = heldBelow(c, parent, receivers);
                BitSet actual = new BitSet();
                SessionRelay relay = LayeredModuleSimulationTest.service(net, "n" + parent[c])
                        .relay(NodeId.ofName("n0"), sender[0].sessionId());
                for (int k = 0; relay != null && k < LAYERS.count(); k++) {
                    actual.set(k, relay.forwarding().forwards(NodeId.ofName("n" + c).value(), k));
                }
                assertThat(actual).as("layers on n%d->n%d", parent[c], c).isEqualTo(expected);
                if (expected.isEmpty()) {
                    assertThat(LayeredModuleSimulationTest.service(net, "n" + c).sessions())
                            .as("state at n%d with nobody downstream", c).isZero();
                }
            }
        }
    }

    private static long lastMove(List<Receiver> receivers) {
        long last = Long.MIN_VALUE;
        for (Receiver r : receivers) {
            for (LevelChange c : r.handle().history()) {
                last = Math.max(last, c.nowNanos());
            }
        }
        return last;
    }

    private static BitSet heldBelow(int node, int[] parent, List<Receiver> receivers) {
        BitSet held = new BitSet();
        for (Receiver r : receivers) {
            for (int at = r.node(); at > 0; at = parent[at]) {
                if (at == node) {
                    held.set(0, r.handle().level() + 1);
                    break;
                }
            }
        }
        return held;
    }
}
