package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;
import org.junit.jupiter.api.Test;

/**
 * Fair queuing on a relay's link with the real module on simulated nodes: sources a and b each
 * send a session through relay r to receivers on m; r paces layered data to m at 400 Kbit/s, shared
 * between the sessions by deficit round robin. The sessions are layered differently (8 x 50 and
 * 4 x 100 Kbit/s), so what each gets is the queue's doing, not the layers'.
 */
class LayeredFairQueueSimulationTest {
    static final LayerRates A_LAYERS = LayerRates.equal(8, 50_000);
    static final LayerRates B_LAYERS = LayerRates.equal(4, 100_000);
    static final long LINK = 400_000;

    @Test
    void twoSessionsSharingARelayLinkUnderFairQueuingShareIt() {
        try (SimNetwork net = new SimNetwork(5, b -> b.module(new MulticastModule()))) {
            for (String n : List.of("a", "b", "r", "m")) {
                net.node(n);
            }
            LinkSpec open = LinkSpec.builder().delay(Duration.ofMillis(5)).build();
            net.link("a", "r", open);
            net.link("b", "r", open);
            net.link("r", "m", open);
            net.start();
            net.runFor(Duration.ofSeconds(10));
            net.nodeNamed("r").interact(stack -> stack.module(LayeredMulticast.class).relayQueueing(RelayQueueing.fair(LINK)));
            LayeredReceiver[] receivers = new LayeredReceiver[2];
            net.nodeNamed("m").interact(stack -> {
                receivers[0] = stack.module(Multicast.class).joinLayered("tv-a", 5004, msg -> { });
                receivers[1] = stack.module(Multicast.class).joinLayered("tv-b", 5004, msg -> { });
            });
            net.nodeNamed("a").interact(stack -> stack.module(Multicast.class).openLayeredSender("tv-a", 5004, A_LAYERS));
            net.nodeNamed("b").interact(stack -> stack.module(Multicast.class).openLayeredSender("tv-b", 5004, B_LAYERS));
            net.runFor(Duration.ofSeconds(4));
            long a0 = receivers[0].packetsReceived();
            long b0 = receivers[1].packetsReceived();
            net.runFor(Duration.ofSeconds(6));
            double a = (receivers[0].packetsReceived() - a0) * 8.0 * EraConfig.DEFAULT_PACKET_BYTES / 6;
            double b = (receivers[1].packetsReceived() - b0) * 8.0 * EraConfig.DEFAULT_PACKET_BYTES / 6;
            String seen = "A " + a + " bit/s " + receivers[0].history() + ", B " + b + " bit/s " + receivers[1].history();
            System.out.printf(java.util.Locale.ROOT, "two sessions through a fair-queued 400 Kbit/s relay link: %.1f and %.1f Kbit/s%n",
                    a / 1e3, b / 1e3);
            // Each keeps close to its half (under a DropTail bottleneck of the same rate both jumped
            // past it, lost their pairs and left the session; with a quantum of several packets each
            // held about a quarter, 110 and 109 Kbit/s), the shares are alike, and the pacing holds.
            assertThat(a).as(seen).isGreaterThan(0.4 * LINK);
            assertThat(b).as(seen).isGreaterThan(0.4 * LINK);
            assertThat(Math.abs(a - b)).as(seen).isLessThan(0.1 * Math.max(a, b));
            assertThat(a + b).as(seen).isLessThanOrEqualTo(LINK * 1.02);
            FairLinkQueue q = LayeredModuleSimulationTest.service(net, "r").queues().queue(NodeId.ofName("m"));
            assertThat(q.sent()).isPositive();
            assertThat(q.queued()).isLessThanOrEqualTo(2 * RelayQueueing.DEFAULT_PACKETS_PER_SESSION);
        }
    }
}
