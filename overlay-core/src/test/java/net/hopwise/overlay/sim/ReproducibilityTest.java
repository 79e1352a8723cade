package net.hopwise.overlay.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.tcp.TcpConfig;
import net.hopwise.overlay.sim.tcp.TcpFlow;
import net.hopwise.overlay.sim.tcp.TcpVariant;
import org.junit.jupiter.api.Test;

/**
 * The same scenario and seed give a bit-identical event trace; another seed gives another trace.
 * The scenario exercises everything random or order-sensitive: overlay nodes converging over lossy
 * RED and fair-queued links, an overlay CBR flow, an end-to-end TCP flow sharing the links, a link
 * failure and recovery, a crash and restart, and a change of loss model.
 */
class ReproducibilityTest {
    private static final long MS = 1_000_000L;

    private static String run(long seed) {
        try (SimNetwork net = new SimNetwork(seed)) {
            for (String n : new String[] {"a", "b", "c", "d", "e"}) {
                net.node(n);
            }
            LinkSpec lossy = LinkSpec.builder().delayMillis(10).bandwidthBitsPerSecond(2_000_000)
                    .queue(QueueDiscipline.Red.recommended(50)).bernoulliLoss(0.02).build();
            LinkSpec fair = LinkSpec.builder().delayMillis(5).bandwidthBitsPerSecond(1_000_000)
                    .queue(new QueueDiscipline.FairQueue(40, 1500))
                    .loss(new net.hopwise.overlay.impair.LossModel.GilbertElliott(0.01, 0.3, 0, 0.8))
                    .jitter(Duration.ofMillis(2)).build();
            net.link("a", "b", lossy);
            net.link("b", "c", fair);
            net.link("c", "d", lossy);
            net.link("d", "e", fair);
            net.link("a", "e", LinkSpec.builder().delayMillis(30).bernoulliLoss(0.01).build());
            net.start();
            long t0 = net.now();
            OverlayCbrFlow overlay = new OverlayCbrFlow(net, 1, "a", "d", 7, 1000, RoutingMetric.LATENCY,
                    new DelayStatistics(60 * MS));
            overlay.start(t0 + 3_000 * MS, 16 * MS, t0 + 20_000 * MS);
            TcpFlow tcp = new TcpFlow(net, 2, TcpVariant.SACK, TcpConfig.defaults(),
                    net.path("a", "b", "c", "d"), net.path("d", "c", "b", "a"), new DelayStatistics(60 * MS));
            tcp.constantRate(t0 + 2_000 * MS, 10 * MS, t0 + 20_000 * MS);
            net.at(t0 + 8_000 * MS, now -> net.failLink("b", "c"));
            net.at(t0 + 11_000 * MS, now -> net.restoreLink("b", "c"));
            net.at(t0 + 12_000 * MS, now -> net.crash("e"));
            net.at(t0 + 14_000 * MS, now -> net.restart("e"));
            net.at(t0 + 15_000 * MS, now -> net.changeLink("a", "b", LinkSpec.builder().delayMillis(20)
                    .bandwidthBitsPerSecond(2_000_000).bernoulliLoss(0.05).build()));
            net.runFor(Duration.ofSeconds(22));
            assertThat(overlay.delivered()).isGreaterThan(500);
            assertThat(tcp.receiver().delivered()).isGreaterThan(200);
            assertThat(net.trace().count(TraceKind.WIRE_LOSS)).isPositive();
            assertThat(net.trace().count(TraceKind.FAILURE_DROP)).isPositive();
            return net.trace().digest() + " " + net.trace().records();
        }
    }

    @Test
    void theSameSeedGivesTheSameTraceAndAnotherSeedAnother() {
        String first = run(2024);
        String second = run(2024);
        String other = run(2025);
        assertThat(second).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
    }
}
