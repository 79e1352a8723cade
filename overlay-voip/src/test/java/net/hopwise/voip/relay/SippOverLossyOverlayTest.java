package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import net.hopwise.overlay.testing.LeakDetection;
import net.hopwise.voip.relay.LossRecoveryExperiment.Column;
import net.hopwise.voip.relay.LossRecoveryExperiment.Condition;
import net.hopwise.voip.relay.LossRecoveryExperiment.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Loss recovery, the point of the relay, with real phones: per condition, SIPp calls streaming RTP each
 * way through two relays whose overlay link is impaired (10 ms delay, loss p each way), and in the same
 * run as many SIPp calls forwarded as plain UDP across the same impairment ({@link PlainUdpForwarder}).
 * The run is {@link LossRecoveryExperiment#run}, the one behind the figures of record, here with 10
 * calls of 6 s per column at once (about 6,000 packets a column) instead of 4 of 15 s, and one run
 * instead of three.
 *
 * <p>Conditions: 1%, 5% and 10%, uniform and bursty (bursts of 2.5 packets on average), on one link;
 * and two links of 5% in a row, uniform. The bursty chain is left to the experiment: its residual
 * composes per link as the uniform chain's does (benchmarks.md), and leaving it out keeps the class near
 * a minute (about 8 s a condition on the 2-core machine).
 *
 * <p>Checked per condition: every call of both columns completes (SIPp exits 0); the residual loss the
 * phones see through the overlay lies in {@link ResidualBand} around the thesis' 2p^2 - 3p^3; plain
 * UDP's loss lies within four standard deviations of 1 - (1 - p)^links; and at 5% on one link the
 * overlay's E-model MOS is at least 4.30 where plain UDP's is below 4.15 (about 3.87 expected).
 *
 * <p>Seeded: {@code -Dvoip.loss.seed=N} (default 1) seeds every impairment model, the nodes' and the
 * forwarder's, and every assertion names the seed. The forwarder's models see only the calls' packets,
 * so a seed gives the plain column the same count of losses again; the overlay links' models also
 * step on hellos, acknowledgements and retransmissions, whose timing is real, so there a seed replays
 * the random streams but not the exact losses.
 */
class SippOverLossyOverlayTest {
    static final int CALLS = 10;
    static final int SECONDS = 6;
    /** RTP packets a column should carry: both directions of every call, 50 a second. */
    static final long PACKETS = 2L * CALLS * SECONDS * 50;
    /**
     * Plain UDP's loss band in standard deviations: one in 16,000 two-sided. Its count is binomial (with
     * the bursty chain's dispersion), and a seed fixes it: the forwarder's models replayed without phones
     * over 40 seeds spread with the binomial variance (mean z^2 0.9 to 1.2 per condition), and the
     * default seed's counts lie within 3 of the mean (2.4 to 2.8 below it for two links). At 6,000
     * packets: 1% 0.5-1.5%, 5% 3.9-6.1%, 10% 8.5-11.5%, two links 8.2-11.3%; bursty 1% 0-2.0%, 5%
     * 2.8-7.2%, 10% 7.1-12.9%.
     */
    static final double Z = 4;

    @TempDir
    Path dir;

    @AfterEach
    void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    static Stream<Arguments> conditions() {
        return LossRecoveryExperiment.CONDITIONS.stream().filter(c -> c.links() == 1 || !c.bursty())
                .map(c -> Arguments.of(c.name(), c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("conditions")
    void theOverlayRecoversLossesThatPlainUdpPassesOnToThePhones(String name, Condition c) throws IOException {
        Sipp.binary();
        long seed = Long.getLong("voip.loss.seed", 1);
        LossRecoveryExperiment.prepare(dir, SECONDS);
        Outcome o = LossRecoveryExperiment.run(dir, c, seed, CALLS, SECONDS);
        LossRecoveryExperiment.print("suite", o);
        String run = String.format(Locale.ROOT, "%s, seed %d (-Dvoip.loss.seed=%d)", name, seed, seed);
        Column overlay = o.overlay();
        Column plain = o.plain();
        assertThat(overlay.callsOk() && plain.callsOk()).as("every SIPp call completed, %s; SIPp:\n%s", run,
                o.sippLogs()).isTrue();
        // The echo trails the caller's stream and the last packets are not yet known lost: a little under PACKETS.
        assertThat(overlay.expected()).as("overlay packets expected, %s", run).isGreaterThan(PACKETS * 9 / 10);
        assertThat(plain.expected()).as("plain UDP packets expected, %s", run).isGreaterThan(PACKETS * 9 / 10);

        ResidualBand band = ResidualBand.of(c, overlay.expected());
        assertThat(band.upper()).as("the band tells recovery from none at this sample size, %s", run)
                .isLessThan(Math.round(overlay.expected() * c.plainPercent() / 100));
        assertThat(overlay.missed()).as("overlay residual %d of %d (%.2f %%, %d late) against the model's %.2f %%,"
                + " %s", overlay.missed(), overlay.expected(), overlay.residualPercent(), overlay.late(),
                c.modelPercent(), run).isBetween(band.lower(), band.upper());

        double mean = plain.expected() * c.plainPercent() / 100;
        double spread = Z * Math.sqrt(c.lossCountDispersion() * mean * (1 - c.plainPercent() / 100));
        assertThat((double) plain.missed()).as("plain UDP loss %d of %d (%.2f %%) against %.2f %%, %s", plain.missed(),
                plain.expected(), plain.residualPercent(), c.plainPercent(), run)
                .isBetween(mean - spread, mean + spread);

        // The calls' own recovered count: what the overlay lost before recovery, the recovered and the
        // residual together, is the links' loss, as plain UDP's is.
        double before = overlay.expected() * c.plainPercent() / 100;
        double beforeSpread = Z * Math.sqrt(c.lossCountDispersion() * before * (1 - c.plainPercent() / 100));
        assertThat((double) overlay.lostBeforeRecovery()).as("overlay loss before recovery %d (%d recovered, %d"
                + " residual) of %d against %.2f %%, %s", overlay.lostBeforeRecovery(), overlay.recovered(),
                overlay.missed(), overlay.expected(), c.plainPercent(), run)
                .isBetween(before - beforeSpread, before + beforeSpread);

        if (c.p() == 0.05 && c.links() == 1) {
            // MOS 4.30 needs a residual under about 1.04% at these delays (35-40 ms); 5% here leaves 0.3-0.65%,
            // and with 6,000 packets 1.04% is 62 against a Poisson mean of at most 36 (1 in 6,000 to reach).
            assertThat(overlay.mos()).as("overlay MOS (residual %.2f %%, delay %.1f ms), %s",
                    overlay.residualPercent(), overlay.delayMs(), run).isGreaterThanOrEqualTo(4.30);
            // 4.15 is plain UDP's MOS at 2.7% loss, under the lower edge of its loss band (2.8% bursty).
            assertThat(plain.mos()).as("plain UDP MOS (loss %.2f %%, delay %.1f ms), %s", plain.residualPercent(),
                    plain.delayMs(), run).isLessThan(4.15).isLessThan(overlay.mos());
        }
    }

    /** The bands at the suite's sample size, without phones: they hold the model and reject no recovery. */
    @Test
    void theResidualBandHoldsTheModelAndRejectsAResidualAsLargeAsTheLinkLoss() {
        assertThat(ResidualBand.poissonQuantile(0.999, 1)).isEqualTo(5);
        assertThat(ResidualBand.poissonQuantile(0.001, 1)).isZero();
        conditions().map(a -> (Condition) a.get()[1]).forEach(c -> {
            ResidualBand band = ResidualBand.of(c, PACKETS);
            long model = Math.round(PACKETS * c.modelPercent() / 100);
            long none = Math.round(PACKETS * c.plainPercent() / 100);
            assertThat(model).as(c.name()).isBetween(band.lower(), band.upper());
            assertThat(none).as(c.name() + ": a residual equal to the link loss fails").isGreaterThan(band.upper());
            assertThat(band.upper()).as(c.name() + ": a residual of half the link loss fails").isLessThan(none / 2);
        });
    }

    /**
     * Where the overlay's residual count may fall, given the packets expected: from a quarter of the
     * model's count to twice it, widened by Poisson sampling at one in 10,000 on each side. The lower
     * side is the looser because a residual under the model is no failure of recovery (bursts, whose
     * retransmission goes a round trip later, land under it), and only the lower side could make a good
     * run fail; it still refuses a count of none where the model expects a hundred.
     *
     * <p>Poisson: a packet is missed when it and its retransmission are both lost, nearly independently
     * of other packets (a retransmission goes a round trip later, past a burst of 2.5 packets), so the
     * count is binomial with a small probability. The factor two: 2p^2 - 3p^3 is first order. The
     * simulator's model counting the revealing packet's loss as well, 2p^2 - p^3, is 12% above it at
     * 10%; with bursts the runs of record sit lower (0.7x at 5%) and uniform ones higher (up to 1.4x in
     * one run of 6,000 packets), benchmarks.md; 24 runs of 4,800 packets at 5% and 10% ranged from 0.3x
     * (bursty 5%, 6 packets) to 1.5x. At 6,000 packets: [0, 10] at 1% (under 0.17%), [0, 85] at 5%
     * (under 1.42%), [9, 259] at 10% (0.15% to 4.3%), [2, 152] for two links of 5%; a residual equal
     * to p (60, 300, 600, 585 packets) falls far outside each.
     */
    record ResidualBand(long lower, long upper) {
        static final double UNDER = 4;
        static final double OVER = 2;
        static final double TAIL = 1e-4;

        static ResidualBand of(Condition c, long expected) {
            double mean = expected * c.modelPercent() / 100;
            return new ResidualBand(poissonQuantile(TAIL, mean / UNDER), poissonQuantile(1 - TAIL, mean * OVER));
        }

        /** The least k with P(X <= k) >= q for X Poisson of the given mean (up to a mean of a few hundred). */
        static long poissonQuantile(double q, double mean) {
            double logPmf = -mean;
            double cdf = Math.exp(logPmf);
            long k = 0;
            while (cdf < q) {
                k++;
                logPmf += Math.log(mean) - Math.log(k);
                cdf += Math.exp(logPmf);
            }
            return k;
        }
    }
}
