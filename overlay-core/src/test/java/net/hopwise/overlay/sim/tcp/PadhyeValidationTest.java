package net.hopwise.overlay.sim.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;
import org.junit.jupiter.api.Test;

/**
 * The simulated TCP variants against the Padhye et al. throughput model on a single lossy link: a
 * bulk transfer over a 100 Mbit/s link with 50 ms one-way delay and Bernoulli loss on the data
 * direction, so throughput is limited by loss and not by capacity or the receiver window.
 */
class PadhyeValidationTest {
    private static final long MS = 1_000_000L;

    static double measuredSegmentsPerSecond(TcpVariant variant, double loss, long seed, int seconds) {
        TcpConfig config = TcpConfig.builder().receiverWindow(1000).build();
        try (SimNetwork net = new SimNetwork(seed)) {
            net.plainNode("s");
            net.plainNode("r");
            LinkSpec clean = LinkSpec.builder().delayMillis(50).bandwidthBitsPerSecond(100_000_000)
                    .queue(new net.hopwise.overlay.sim.QueueDiscipline.DropTail(10_000)).build();
            net.link("s", "r", clean.withLoss(new LossModel.Bernoulli(loss)), clean);
            net.start();
            TcpFlow flow = new TcpFlow(net, 1, variant, config, net.path("s", "r"), net.path("r", "s"),
                    new DelayStatistics());
            flow.bulk(net.now());
            net.runFor(Duration.ofSeconds(20));
            long before = flow.receiver().delivered();
            net.runFor(Duration.ofSeconds(seconds));
            return (flow.receiver().delivered() - before) / (double) seconds;
        }
    }

    static double model(double loss) {
        // RTT 100 ms (plus serialisation, negligible); T0 = the 200 ms minimum RTO, which binds at this RTT.
        return PadhyeModel.segmentsPerSecond(loss, 0.1, 0.2, 1, Double.POSITIVE_INFINITY);
    }

    @Test
    void everyVariantIsWithinAFifthOfTheModelFromHalfAPercentToFivePercentLoss() {
        for (TcpVariant v : new TcpVariant[] {TcpVariant.RENO, TcpVariant.NEW_RENO, TcpVariant.SACK}) {
            for (double p : new double[] {0.005, 0.01, 0.02, 0.05}) {
                double measured = measuredSegmentsPerSecond(v, p, 42, 600);
                double ratio = measured / model(p);
                assertThat(ratio).as("%s at %.1f%% loss: %.1f vs model %.1f seg/s", v.label(), p * 100, measured,
                        model(p)).isBetween(0.8, 1.2);
            }
        }
    }
}
