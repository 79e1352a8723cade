package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.SimNetwork;
import org.junit.jupiter.api.Test;

/**
 * Cost-Benefit flow control on a line s - r - m in the simulator: back-pressure as results and
 * writability, link costs flooded while a link has a queue and gone when it drains, a crashed node's
 * costs aged out, and every bought message delivered once.
 */
class FlowControlSimulationTest {
    private static final long MBIT = 1_000_000L;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private SimNetwork line(long rMbit) {
        SimNetwork net = new SimNetwork(5, b -> b.module(CostBenefitScenarios.module()).meterRegistry(meters));
        for (String n : List.of("s", "r", "m")) {
            net.node(n);
        }
        net.link("s", "r", CostBenefitScenarios.link(10 * MBIT, 5));
        net.link("r", "m", CostBenefitScenarios.link(rMbit * MBIT, 5));
        net.start();
        net.runFor(Duration.ofSeconds(20));
        return net;
    }

    @Test
    void aSenderThatCannotAffordItsNextPacketIsRefusedAsBlockedUntilItsSalary() {
        try (SimNetwork net = line(10)) {
            Inbox inbox = new Inbox();
            net.nodeNamed("m").interact(s -> s.module(Multicast.class).join("g", 1, inbox));
            net.runFor(Duration.ofSeconds(2));
            GroupSender[] sender = new GroupSender[1];
            AtomicInteger writable = new AtomicInteger();
            List<SendResult> results = new ArrayList<>();
            net.nodeNamed("s").interact(s -> {
                sender[0] = s.module(Multicast.class).sender("g", 1, RoutingMetric.LATENCY);
                sender[0].onWritable(writable::incrementAndGet);
                // Idle links cost nothing: each packet costs the $1 fee, and the first salary is $10.
                for (int i = 0; i < 15; i++) {
                    results.add(sender[0].send(new byte[100]));
                }
            });
            assertThat(results.subList(0, 11)).allSatisfy(r -> assertThat(r.accepted()).isTrue());
            assertThat(results.subList(11, 15)).allSatisfy(r -> {
                assertThat(r.status()).isEqualTo(SendResult.Status.BLOCKED);
                assertThat(r.detail()).contains("writable");
            });
            assertThat(sender[0].writable()).isFalse();
            assertThat(writable.get()).as("ten bought at once, each freeing the sender").isEqualTo(10);
            SenderStatistics st = sender[0].statistics();
            assertThat(st.packets()).isEqualTo(10);
            assertThat(st.blocked()).isEqualTo(4);
            assertThat(st.tokens()).isZero();

            // The first salary comes between half a period and one and a half (drawn against lockstep).
            net.runFor(Duration.ofMillis(490));
            assertThat(sender[0].writable()).as("no salary before half its period").isFalse();
            net.runFor(Duration.ofMillis(1020));
            assertThat(sender[0].writable()).isTrue();
            assertThat(writable.get()).isEqualTo(11);
            assertThat(sender[0].statistics().salaryPeriodNanos()).as("blocked on the fee: Eq 4.10")
                    .isEqualTo((long) (1e9 * 50e6 / (1e9 + 50e6)));
            net.runFor(Duration.ofSeconds(1));
            assertThat(inbox.messages).hasSize(11);
            assertThat(inbox.messages).extracting(MulticastMessage::messageId).doesNotHaveDuplicates();
        }
    }

    @Test
    void aQueuedLinksCostReachesTheSourceAndGoesWhenTheQueueDrains() {
        try (SimNetwork net = line(1)) {
            net.nodeNamed("m").interact(s -> s.module(Multicast.class).join("g", 1, m -> { }));
            net.runFor(Duration.ofSeconds(2));
            List<CostBenefitScenarios.GreedyClient> clients = CostBenefitScenarios.clients(net, "s", "g", 10);
            NodeId r = NodeId.ofName("r");
            NodeId m = NodeId.ofName("m");
            double peak = 0;
            for (int i = 0; i < 100; i++) {
                net.runFor(Duration.ofMillis(50));
                peak = Math.max(peak, net.engine("s").module(Multicast.class).linkCosts()
                        .getOrDefault(r, java.util.Map.of()).getOrDefault(m, 0.0));
            }
            assertThat(peak).as("r's cost for r->m, as s heard it").isGreaterThan(0);
            LinkBuffer atR = net.engine("r").module(Multicast.class).linkBuffers().stream()
                    .filter(b -> b.neighbour().equals(m)).findFirst().orElseThrow();
            assertThat(atR.window()).isPositive();
            assertThat(meters.get("hopwise.multicast.link.buffer").tag("node", "r")
                    .tag("neighbour", "m").gauge().value()).isEqualTo(atR.average());
            // Stop the clients: the buffer drains, the next fast update says 0, and the cost goes.
            clients.forEach(c -> c.sender.close());
            net.runFor(Duration.ofSeconds(3));
            assertThat(net.engine("s").module(Multicast.class).linkCosts()).isEmpty();
            assertThat(net.engine("r").module(Multicast.class).linkBuffers())
                    .allSatisfy(b -> assertThat(b.average()).isZero());
        }
    }

    @Test
    void aCrashedNodesCostsAgeOut() {
        try (SimNetwork net = line(1)) {
            net.nodeNamed("m").interact(s -> s.module(Multicast.class).join("g", 1, m -> { }));
            net.runFor(Duration.ofSeconds(2));
            CostBenefitScenarios.clients(net, "s", "g", 10);
            net.runFor(Duration.ofSeconds(5));
            assertThat(net.engine("s").module(Multicast.class).linkCosts()).containsKey(NodeId.ofName("r"));
            net.crash("r");
            // Three slow intervals unheard: the origin is gone.
            net.runFor(Duration.ofMillis(3 * 2500 + 100));
            assertThat(net.engine("s").module(Multicast.class).linkCosts()).doesNotContainKey(NodeId.ofName("r"));
        }
    }

    /**
     * S4 in miniature: 30 idle leaves and a sender s behind a, the 2 Mbit/s bottleneck a - b, a member
     * r behind b. With every node flooding its zero costs every T_max, each leaf's update rides across
     * a - b four times in 10 s (28 bytes each, 3.4 kB for the 30); an idle node now skips them, and
     * nothing any node computes a price from changes: the leaves' links cost 0 at b, known or not, and
     * a's congested link is priced at s all the same.
     */
    @Test
    void anIdleNodesCostUpdatesNoLongerCrossACongestedLinkAndNoPriceChanges() {
        Bottleneck quiet = bottleneckTraffic(CostBenefitConfig.thesis());
        Bottleneck every = bottleneckTraffic(CostBenefitConfig.builder().quietWhenIdle(false).build());
        System.out.printf("update bytes across a-b in 10 s: %d quiet, %d every T_max%n", quiet.updateBytes,
                every.updateBytes);
        assertThat(every.updateBytes - quiet.updateBytes).as("the leaves' T_max updates (30 x 4 x 28 bytes) are gone")
                .isGreaterThan(3 * 30 * 28);
        for (Bottleneck run : List.of(quiet, every)) {
            assertThat(run.highestAtS).as("a -> b's cost as s heard it").isGreaterThan(0);
            assertThat(run.leafCostsAtB).as("what b prices the leaves' links at").isZero();
        }
    }

    private record Bottleneck(long updateBytes, double highestAtS, double leafCostsAtB) {}

    /**
     * a's update lists its 32 links (400 bytes) every T_max, more than the 132 bytes a full data packet
     * leaves, and a - b carries only full packets; a's fast updates (a - b's cost alone) merge into it
     * while it waits. It goes on its own after T_update, so b holds what a advertised a moment ago; it
     * used to wait for a carrier with room that never came, and b lost a's costs three T_max later.
     */
    @Test
    void aBusyLinksCostFromANodeOfManyLinksReachesTheFarSideWithinABound() {
        try (SimNetwork net = behindABottleneck(CostBenefitConfig.thesis(), new ArrayList<>())) {
            NodeId a = NodeId.ofName("a");
            NodeId b = NodeId.ofName("b");
            long step = 10;
            // a's own cost for a - b, sampled every 10 ms: when b holds a value, how long since a held it.
            List<Double> atA = new ArrayList<>();
            long worstLagMs = 0;
            int positiveAtB = 0;
            int samples = 1000;
            // A second of a's values first, so that what b holds at the first sample has its time.
            for (int i = 0; i < 100; i++) {
                net.runFor(Duration.ofMillis(step));
                atA.add(cost(net, "a", a, b));
            }
            for (int i = 0; i < samples; i++) {
                net.runFor(Duration.ofMillis(step));
                atA.add(cost(net, "a", a, b));
                double heard = cost(net, "b", a, b);
                positiveAtB += heard > 0 ? 1 : 0;
                int j = atA.size() - 1;
                while (j >= 0 && atA.get(j) != heard) {
                    j--;
                }
                long lagMs = j < 0 ? Long.MAX_VALUE : (atA.size() - 1 - j) * step;
                worstLagMs = Math.max(worstLagMs, lagMs);
            }
            System.out.printf("a - b's cost at b: longest behind a %d ms, above 0 in %d of %d samples%n",
                    worstLagMs, positiveAtB, samples);
            assertThat(atA).as("a - b is congested").allSatisfy(c -> assertThat(c).isGreaterThan(0));
            // T_update waiting, one fast period for a's next update and the crossing, with room to spare.
            assertThat(worstLagMs).as("how long b's value of a - b's cost was behind a's").isLessThanOrEqualTo(250);
            assertThat(positiveAtB).as("b prices a - b").isEqualTo(samples);
        }
    }

    private static double cost(SimNetwork net, String at, NodeId origin, NodeId link) {
        return net.engine(at).module(Multicast.class).linkCosts().getOrDefault(origin, java.util.Map.of())
                .getOrDefault(link, 0.0);
    }

    /** s's ten greedy clients send to r across a - b, 2 Mbit/s, 5 s after they began; 30 idle leaves hang on a. */
    private static SimNetwork behindABottleneck(CostBenefitConfig config, List<NodeId> leaves) {
        SimNetwork net = new SimNetwork(5, b -> b.module(CostBenefitScenarios.module(config)));
        for (String n : List.of("s", "a", "b", "r")) {
            net.node(n);
        }
        net.link("s", "a", CostBenefitScenarios.link(100 * MBIT, 1));
        net.link("a", "b", CostBenefitScenarios.link(2 * MBIT, 10));
        net.link("b", "r", CostBenefitScenarios.link(100 * MBIT, 1));
        for (int i = 0; i < 30; i++) {
            net.node("l" + i);
            net.link("l" + i, "a", CostBenefitScenarios.link(100 * MBIT, 1));
            leaves.add(NodeId.ofName("l" + i));
        }
        net.start();
        net.runFor(Duration.ofSeconds(20));
        net.nodeNamed("r").interact(st -> st.module(Multicast.class).join("g", 1, m -> { }));
        net.runFor(Duration.ofSeconds(2));
        CostBenefitScenarios.clients(net, "s", "g", 10);
        net.runFor(Duration.ofSeconds(5));
        return net;
    }

    private static Bottleneck bottleneckTraffic(CostBenefitConfig config) {
        List<NodeId> leaves = new ArrayList<>();
        try (SimNetwork net = behindABottleneck(config, leaves)) {
            NodeId a = NodeId.ofName("a");
            NodeId b = NodeId.ofName("b");
            long start = toB(net, b).updateBytes();
            double highest = 0;
            double leafCosts = 0;
            for (int i = 0; i < 200; i++) {
                net.runFor(Duration.ofMillis(50));
                highest = Math.max(highest, net.engine("s").module(Multicast.class).linkCosts()
                        .getOrDefault(a, java.util.Map.of()).getOrDefault(b, 0.0));
                var atB = net.engine("b").module(Multicast.class).linkCosts();
                for (NodeId leaf : leaves) {
                    leafCosts += atB.getOrDefault(leaf, java.util.Map.of()).getOrDefault(a, 0.0);
                }
            }
            return new Bottleneck(toB(net, b).updateBytes() - start, highest, leafCosts);
        }
    }

    private static LinkBuffer toB(SimNetwork net, NodeId b) {
        return net.engine("a").module(Multicast.class).linkBuffers().stream().filter(lb -> lb.neighbour().equals(b))
                .findFirst().orElseThrow();
    }
}
