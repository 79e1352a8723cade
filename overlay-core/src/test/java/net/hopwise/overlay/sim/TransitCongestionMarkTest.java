package net.hopwise.overlay.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionStatistics;
import org.junit.jupiter.api.Test;

/**
 * Congestion marks on the simulator: a transit node whose outgoing link queue grows marks the packets
 * passing through; the receiving edge echoes the marks and the sending edge slows down without
 * resending. The sending node's own first link does not mark (its session answers that queue
 * directly), so a session over one link sees no marks however hard it pushes.
 */
class TransitCongestionMarkTest {
    private static final long MS = 1_000_000L;

    private static SimNetwork network(String... names) {
        SimNetwork net = new SimNetwork(5);
        for (String n : names) {
            net.node(n);
        }
        return net;
    }

    /**
     * Starts the network, then offers 1000-byte messages every 0.5 ms for 3 s (16 Mbit/s) from A to
     * {@code destination} and lets them drain for 10 s.
     */
    private static OverlaySessionFlow offerTooMuch(SimNetwork net, String destination) {
        net.start();
        net.runFor(Duration.ofSeconds(3));
        OverlaySessionFlow flow = new OverlaySessionFlow(net, 1, "A", destination, 7, 1000, RoutingMetric.HOPS,
                new DelayStatistics(60 * MS, 100 * MS));
        flow.start(net.now(), MS / 2, net.now() + 3_000 * MS);
        net.runFor(Duration.ofSeconds(10));
        return flow;
    }

    @Test
    void aQueueAtATransitNodeSlowsTheSendingEdgeWithoutResends() {
        try (SimNetwork net = network("A", "B", "C")) {
            LinkSpec fast = LinkSpec.builder().delayMillis(5).bandwidthBitsPerSecond(100_000_000).build();
            LinkSpec slow = LinkSpec.builder().delayMillis(5).bandwidthBitsPerSecond(2_000_000).build();
            net.link("A", "B", fast, fast);
            net.link("B", "C", slow, slow); // the 2 Mbit/s second hop
            OverlaySessionFlow flow = offerTooMuch(net, "C");
            SessionStatistics s = flow.session().statistics();
            assertThat(s.congestionReactions()).as("marks heeded").isPositive();
            assertThat(s.retransmissions()).isZero();
            assertThat(flow.delivered()).isGreaterThan(1000); // the second hop's 2 Mbit/s, minus the start
        }
    }

    @Test
    void theSendingNodesOwnLinkDoesNotMark() {
        try (SimNetwork net = network("A", "B")) {
            LinkSpec slow = LinkSpec.builder().delayMillis(5).bandwidthBitsPerSecond(2_000_000).build();
            net.link("A", "B", slow, slow);
            OverlaySessionFlow flow = offerTooMuch(net, "B");
            SessionStatistics s = flow.session().statistics();
            assertThat(s.congestionReactions()).isZero();
            assertThat(flow.backPressured()).as("held back by the first link's queue instead").isPositive();
            assertThat(flow.delivered()).isGreaterThan(1000); // the link's 2 Mbit/s, minus the start
        }
    }
}
