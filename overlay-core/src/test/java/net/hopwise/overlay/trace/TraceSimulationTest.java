package net.hopwise.overlay.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;
import org.junit.jupiter.api.Test;

/** The trace module in the simulator: three nodes in a line over links of 10 ms each way. */
class TraceSimulationTest {
    private static final Duration DELAY = Duration.ofMillis(10);

    @Test
    void roundTripToHopKIsTwiceTheDelaysUpToIt() {
        try (SimNetwork net = new SimNetwork(7, b -> b.module(new TraceModule()))) {
            net.node("a");
            net.node("b");
            net.node("c");
            net.link("a", "b", LinkSpec.delay(DELAY));
            net.link("b", "c", LinkSpec.delay(DELAY));
            net.start();
            net.runFor(Duration.ofSeconds(30));

            CompletableFuture<TraceResult>[] future = new CompletableFuture[1];
            net.nodeNamed("a").interact(stack -> future[0] = stack.module(TraceService.class)
                    .trace("c", RoutingMetric.LATENCY));
            net.runFor(Duration.ofSeconds(1));
            assertThat(future[0]).isDone();
            TraceResult result = future[0].join();

            assertThat(result.reached()).isTrue();
            assertThat(result.hops()).extracting(TraceHop::node).containsExactly("b", "c");
            double delayMillis = DELAY.toNanos() / 1e6;
            // The simulated links have no bandwidth limit or jitter: nothing but the delays adds to a
            // round trip, so a twentieth of one delay is room enough.
            double tolerance = delayMillis / 20;
            for (TraceHop hop : result.hops()) {
                assertThat(hop.roundTripMillis()).as("round trip to hop %d", hop.hop())
                        .isCloseTo(2 * delayMillis * hop.hop(), within(tolerance));
                assertThat(hop.linkRttMillis()).isCloseTo(2 * delayMillis, within(tolerance));
                // Routing's latency cost of a link is its one-way delay, half the measured round trip.
                assertThat(hop.linkCost()).isCloseTo(delayMillis, within(tolerance));
            }
        }
    }
}
