package net.hopwise.overlay.sim.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Every TCP variant delivers every message exactly once and in order, with or without loss. */
class TcpFlowTest {
    private static final long MS = 1_000_000L;

    private static SimNetwork chain(long seed, double middleLoss) {
        SimNetwork net = new SimNetwork(seed);
        for (String n : new String[] {"a", "b", "c", "d"}) {
            net.plainNode(n);
        }
        LinkSpec plain = LinkSpec.builder().delayMillis(10).bandwidthBitsPerSecond(10_000_000).build();
        net.link("a", "b", plain);
        net.link("b", "c", plain.withLoss(new net.hopwise.overlay.impair.LossModel.Bernoulli(middleLoss)));
        net.link("c", "d", plain);
        net.start();
        return net;
    }

    @Test
    void onALosslessPathDelayIsThePropagationDelayPlusSerialisation() {
        for (TcpVariant v : TcpVariant.values()) {
            try (SimNetwork net = chain(1, 0)) {
                TcpFlow flow = new TcpFlow(net, 1, v, TcpConfig.defaults(), net.path("a", "b", "c", "d"),
                        net.path("d", "c", "b", "a"), new DelayStatistics(60 * MS));
                flow.constantRate(net.now(), 16 * MS, net.now() + 10_000 * MS);
                net.runFor(Duration.ofSeconds(11));
                assertThat(flow.receiver().delivered()).isEqualTo(625);
                // 30 ms of propagation and three 1040-byte serialisations at 10 Mbit/s (0.83 ms each).
                assertThat(flow.delays().minMillis()).as(v.label()).isCloseTo(32.5, within(0.1));
                assertThat(flow.sender().retransmissions()).isZero();
            }
        }
    }

    @Property(tries = 12)
    void everyVariantDeliversEverythingInOrderUnderLoss(@ForAll("variants") TcpVariant variant,
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed,
            @ForAll @DoubleRange(min = 0.0, max = 0.15) double loss) {
        try (SimNetwork net = chain(seed, loss)) {
            long[] expected = {0};
            boolean[] inOrder = {true};
            TcpFlow flow = new TcpFlow(net, 1, variant, TcpConfig.defaults(), net.path("a", "b", "c", "d"),
                    net.path("d", "c", "b", "a"), new DelayStatistics()) ;
            flow.constantRate(net.now(), 20 * MS, net.now() + 20_000 * MS);
            net.runFor(Duration.ofSeconds(200));
            assertThat(flow.receiver().delivered()).isEqualTo(1000);
            assertThat(flow.delays().count()).isEqualTo(1000);
            assertThat(flow.sender().backlog()).isZero();
            assertThat(flow.receiver().expected()).isEqualTo(1000);
        }
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<TcpVariant> variants() {
        return net.jqwik.api.Arbitraries.of(TcpVariant.class);
    }

    @Test
    void sackRecoversFromManyLossesInOneWindowWithFewerTimeoutsThanReno() {
        long renoTimeouts = 0;
        long sackTimeouts = 0;
        for (long seed = 1; seed <= 5; seed++) {
            for (TcpVariant v : new TcpVariant[] {TcpVariant.RENO, TcpVariant.SACK}) {
                try (SimNetwork net = chain(seed, 0.05)) {
                    TcpFlow flow = new TcpFlow(net, 1, v, TcpConfig.defaults(), net.path("a", "b", "c", "d"),
                            net.path("d", "c", "b", "a"), new DelayStatistics());
                    flow.bulk(net.now());
                    net.runFor(Duration.ofSeconds(60));
                    if (v == TcpVariant.RENO) {
                        renoTimeouts += flow.sender().timeouts();
                    } else {
                        sackTimeouts += flow.sender().timeouts();
                    }
                }
            }
        }
        assertThat(sackTimeouts).isLessThan(renoTimeouts);
    }
}
