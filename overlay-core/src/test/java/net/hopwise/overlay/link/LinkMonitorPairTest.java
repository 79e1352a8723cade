package net.hopwise.overlay.link;

import static net.hopwise.overlay.link.VirtualLink.MS;
import static net.hopwise.overlay.link.VirtualLink.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Arrays;
import net.hopwise.overlay.link.VirtualLink.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Two monitors back to back over a virtual channel with delay, jitter, loss and duplication. */
class LinkMonitorPairTest {
    private static final long DEAD = HelloConfig.defaults().deadInterval().toNanos();
    private static final long INTERVAL = HelloConfig.defaults().interval().toNanos();

    @Test
    void bothEndsComeUpAfterOneExchangeWhenStartedTogether() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 1).startBoth();
        link.runUntil(500 * MS);

        // Both first hellos cross at 10 ms and are answered at once; the answers carry fresh echoes.
        assertThat(link.a.upsAt).containsExactly(20 * MS);
        assertThat(link.b.upsAt).containsExactly(20 * MS);
        assertThat(link.a.downsAt).isEmpty();
        assertThat(link.a.monitor.status()).isEqualTo(LinkStatus.UP);
        assertThat(link.b.monitor.status()).isEqualTo(LinkStatus.UP);
    }

    @Test
    void aLateStarterIsAnsweredAtOnceDespiteTheBackedOffSchedule() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 2);
        link.a.start();
        link.b.online = false;
        link.runUntil(3_456 * MS);
        assertThat(link.a.monitor.status()).isEqualTo(LinkStatus.CONNECTING);
        // Alone, a probes once per down interval, not every interval.
        assertThat(link.a.hellosAt).hasSize(4);

        link.b.start();
        link.runFor(200 * MS);
        assertThat(link.b.upsAt).containsExactly(3_456 * MS + 20 * MS);
        assertThat(link.a.upsAt).containsExactly(3_456 * MS + 30 * MS);
    }

    @Test
    void rttConvergesToTheConfiguredRoundTripWithoutClockSync() {
        VirtualLink link = VirtualLink.withDelay(0, 3);
        link.a.out.delay(15 * MS);
        link.b.out.delay(25 * MS);
        link.startBoth().runUntil(3 * SECOND);

        for (Node n : new Node[] {link.a, link.b}) {
            LinkStatistics s = n.monitor.statistics();
            assertThat(s.srttNanos()).as(n + " srtt").isEqualTo(40 * MS);
            assertThat(s.minRttNanos()).isEqualTo(40 * MS);
            assertThat(s.lastRttNanos()).isEqualTo(40 * MS);
            assertThat(s.rttVarNanos()).isLessThan(MS);
            assertThat(n.monitor.oneWayLatencyNanos()).isEqualTo(20 * MS);
            assertThat(n.monitor.rejectedRttSamples()).isZero();
        }
    }

    @Test
    void rttWithJitterStaysWithinTheChannelsBounds() {
        VirtualLink link = VirtualLink.withDelay(20 * MS, 4);
        link.a.out.jitter(10 * MS);
        link.b.out.jitter(10 * MS);
        link.startBoth().runUntil(20 * SECOND);

        LinkStatistics s = link.a.monitor.statistics();
        // Samples are 40 ms plus two uniform 0..10 ms draws: mean 50 ms.
        assertThat(s.srttNanos()).isBetween(44 * MS, 56 * MS);
        assertThat(s.minRttNanos()).isBetween(40 * MS, 43 * MS);
        assertThat(s.rttVarNanos()).isBetween(MS, 10 * MS);
    }

    @Test
    void lossEstimateConvergesAndEachEndLearnsItsOutboundLoss() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 5);
        link.a.out.loss(0.05);
        link.b.out.loss(0.05);
        link.startBoth();
        link.a.sendData(2 * MS);
        link.b.sendData(2 * MS);
        link.runUntil(10 * SECOND);

        LossSamples atA = LossSamples.take(link, link.a, 60, SECOND / 2);
        atA.assertConvergedTo(0.05);
        for (Node n : new Node[] {link.a, link.b}) {
            LinkStatistics s = n.monitor.statistics();
            // The peer reports what it measured at most one hello ago.
            assertThat(s.outboundLossRate()).as(n + " outbound")
                    .isCloseTo(n.other.monitor.inboundLossRate(), within(0.01));
            double overall = s.packetsLost() / (double) (s.packetsLost() + s.packetsReceived());
            assertThat(overall).as(n + " lifetime").isCloseTo(0.05, within(0.005));
            assertThat(s.upTransitions()).isEqualTo(1);
            assertThat(s.downTransitions()).isZero();
        }
        LossSamples.take(link, link.b, 20, SECOND / 2).assertConvergedTo(0.05);
    }

    /**
     * The estimate samples one end's inbound loss (and the other end's view of it as outbound loss)
     * over time. Over 50 events the estimate's own spread is about p/√50 (0.7 points at 5%), so
     * convergence is judged on the mean and on the share of samples near the truth, not on one
     * instant that a seed could make unlucky.
     */
    private record LossSamples(double[] inbound, double[] outboundAtPeer) {
        static LossSamples take(VirtualLink link, Node node, int count, long every) {
            double[] in = new double[count];
            double[] out = new double[count];
            for (int i = 0; i < count; i++) {
                link.runFor(every);
                in[i] = node.monitor.inboundLossRate();
                out[i] = node.other.monitor.outboundLossRate();
            }
            return new LossSamples(in, out);
        }

        void assertConvergedTo(double p) {
            for (double[] series : new double[][] {inbound, outboundAtPeer}) {
                double mean = Arrays.stream(series).average().orElseThrow();
                long near = Arrays.stream(series).filter(x -> Math.abs(x - p) <= 0.015).count();
                assertThat(mean).isCloseTo(p, within(0.0075));
                assertThat(near).isGreaterThanOrEqualTo(Math.round(series.length * 0.8));
            }
        }
    }

    @Test
    void lossEstimateDecaysOnceLossStops() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 6);
        link.b.out.loss(0.05);
        link.startBoth();
        link.b.sendData(MS);
        link.runUntil(20 * SECOND);
        double lossy = link.a.monitor.inboundLossRate();
        assertThat(lossy).isGreaterThan(0.03);

        link.b.out.loss(0);
        link.runFor(20 * SECOND);
        // Some 20,000 clean packets against a history of roughly 1,000: down by an order of magnitude.
        assertThat(link.a.monitor.inboundLossRate()).isLessThan(lossy / 10).isGreaterThan(0);
    }

    @Test
    void jitterIsMeasuredPerDirectionAndZeroOnASteadyPath() {
        VirtualLink link = VirtualLink.withDelay(20 * MS, 7);
        link.b.out.jitter(10 * MS);
        link.startBoth().runUntil(30 * SECOND);

        // RFC 3550 on uniform 0..10 ms transit noise: E|D| = 10/3 ms.
        assertThat(link.a.monitor.statistics().jitterNanos()).isBetween(2 * MS, 5 * MS);
        assertThat(link.b.monitor.statistics().jitterNanos()).isZero();
    }

    @Test
    void deadPeerIsDetectedExactlyOneDeadIntervalAfterItsLastPacketAndNotBefore() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 8).startBoth();
        link.runUntil(2_345 * MS);
        long silentFrom = link.simNow();
        link.b.online = false;
        link.runFor(10 * MS + 1);
        long last = link.a.lastDeliveryAt;

        link.runUntil(last + DEAD - 1);
        assertThat(link.a.monitor.status()).isEqualTo(LinkStatus.UP);
        assertThat(link.a.downsAt).isEmpty();
        link.runUntil(last + DEAD);
        assertThat(link.a.monitor.status()).isEqualTo(LinkStatus.DOWN);
        assertThat(link.a.downsAt).containsExactly(last + DEAD);
        assertThat(last + DEAD).isBetween(silentFrom + DEAD - INTERVAL, silentFrom + DEAD + INTERVAL);

        // A down link keeps probing, once per down interval.
        int before = link.a.hellosAt.size();
        link.runFor(10 * SECOND);
        assertThat(link.a.hellosAt.size() - before).isBetween(9, 11);
    }

    @Test
    void returningPeerBringsTheLinkBackUpWithinAFewRoundTrips() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 9).startBoth();
        link.runUntil(SECOND);
        link.b.online = false;
        link.runFor(5 * SECOND);
        assertThat(link.a.monitor.status()).isEqualTo(LinkStatus.DOWN);

        long back = link.simNow();
        link.b.online = true;
        link.runFor(SECOND);
        // b's overdue timer finds its own link dead, then its hello is answered at once.
        assertThat(link.b.downsAt).containsExactly(back);
        assertThat(link.b.upsAt).hasSize(2).last().isEqualTo(back + 20 * MS);
        assertThat(link.a.upsAt).hasSize(2).last().isEqualTo(back + 30 * MS);
        assertThat(link.a.monitor.statistics().downTransitions()).isEqualTo(1);
        assertThat(link.a.monitor.statistics().srttNanos()).isEqualTo(20 * MS);
    }

    @Test
    void aLinkThatFailsInOneDirectionGoesDownAtBothEnds() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 10).startBoth();
        link.runUntil(SECOND);
        link.b.out.loss(1.0);
        link.runFor(10 * MS + 1);
        long last = link.a.lastDeliveryAt;

        link.runUntil(last + DEAD + INTERVAL + 10 * MS);
        assertThat(link.a.downsAt).containsExactly(last + DEAD);
        // b still hears a, but a's echo of b ages past the dead interval.
        assertThat(link.b.monitor.status()).isEqualTo(LinkStatus.DOWN);
        assertThat(link.b.downsAt).singleElement().satisfies(t -> assertThat(t).isBetween(last + DEAD,
                last + DEAD + INTERVAL + 10 * MS));

        long healed = link.simNow();
        link.b.out.loss(0);
        link.runFor(SECOND);
        assertThat(link.a.upsAt).hasSize(2).last().satisfies(t -> assertThat(t).isLessThan(healed + 200 * MS));
        assertThat(link.b.upsAt).hasSize(2).last().satisfies(t -> assertThat(t).isLessThan(healed + 200 * MS));
    }

    @ParameterizedTest(name = "clock origin moves by {0} ns, link sequence restarts at {1}")
    @CsvSource({"0, 0", "-5000000000000, 0", "5000000000000, 3735928559", "0, 2147483648"})
    void restartedPeerIsResynchronisedWithoutWrongSamplesOrLoss(long clockShift, long firstLinkSeq) {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 11).startBoth();
        link.a.sendData(2 * MS);
        link.b.sendData(2 * MS);
        link.runUntil(2_000 * MS + 7 * MS);

        long restart = link.simNow();
        link.b.clockOffset += clockShift;
        link.b.out.firstLinkSeq(firstLinkSeq);
        link.b.start();
        link.runFor(3 * SECOND);

        LinkMonitor a = link.a.monitor;
        assertThat(a.peerRestarts()).isEqualTo(1);
        // Seen by the engine as one bounce, so it can resynchronise the neighbour.
        assertThat(link.a.downsAt).containsExactly(restart + 10 * MS);
        assertThat(link.a.upsAt).hasSize(2).last().isEqualTo(restart + 30 * MS);
        assertThat(a.status()).isEqualTo(LinkStatus.UP);
        assertThat(link.b.monitor.status()).isEqualTo(LinkStatus.UP);
        LinkStatistics s = a.statistics();
        assertThat(s.minRttNanos()).isEqualTo(20 * MS);
        assertThat(s.srttNanos()).isEqualTo(20 * MS);
        assertThat(s.jitterNanos()).isZero();
        assertThat(a.rejectedRttSamples()).isZero();
        assertThat(s.packetsLost()).isZero();
        assertThat(s.inboundLossRate()).isZero();
        assertThat(link.b.monitor.statistics().srttNanos()).isEqualTo(20 * MS);
    }

    @Test
    void linkSequenceWrapCountsExactlyTheLostPackets() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 12);
        link.b.out.firstLinkSeq(0xFFFF_FF00L).loss(0.05);
        link.a.out.firstLinkSeq(0xFFFF_FFF0L);
        link.startBoth();
        link.a.sendData(MS);
        link.b.sendData(MS);
        link.runUntil(5 * SECOND);
        drain(link);

        assertThat(link.b.out.nextLinkSeq).isLessThan(0xFFFF_FF00L);
        LinkStatistics atA = link.a.monitor.statistics();
        // Only drops before the first delivery, or among the last few hellos, escape counting.
        assertThat(atA.packetsLost()).isBetween(link.b.out.dropped - 3, link.b.out.dropped);
        assertThat(atA.inboundLossRate()).isBetween(0.02, 0.08);
        LinkStatistics atB = link.b.monitor.statistics();
        assertThat(atB.packetsLost()).isZero();
        assertThat(atB.packetsReceived()).isBetween(link.a.out.sent - 1, link.a.out.sent);
        assertThat(atB.inboundLossRate()).isZero();
    }

    @Test
    void reorderingAndDuplicationDoNotCountAsLoss() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 13);
        // Data every millisecond with up to 20 ms of jitter: packets overtake each other by up to ~20.
        link.b.out.jitter(20 * MS).duplicate(0.1);
        link.startBoth().runUntil(SECOND);
        link.b.sendData(MS);
        link.runUntil(10 * SECOND);
        drain(link);

        LinkMonitor a = link.a.monitor;
        assertThat(a.inboundLossRate()).isZero();
        assertThat(a.statistics().packetsLost()).isZero();
        assertThat(a.duplicatePackets()).isGreaterThan(500);
        assertThat(a.statistics().packetsReceived()).isBetween(link.b.out.sent - 1, link.b.out.sent);
        assertThat(link.b.monitor.outboundLossRate()).isZero();
        assertThat(a.statistics().downTransitions()).isZero();
    }

    @Test
    void lossUnderReorderingAndDuplicationIsStillMeasuredCorrectly() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 14);
        link.b.out.jitter(20 * MS).duplicate(0.1).loss(0.05);
        link.startBoth();
        link.b.sendData(MS);
        link.runUntil(10 * SECOND);
        LossSamples.take(link, link.a, 60, SECOND / 2).assertConvergedTo(0.05);
        drain(link);

        assertThat(link.a.monitor.statistics().packetsLost())
                .isBetween(link.b.out.dropped - 3, link.b.out.dropped);
    }

    @Test
    void reorderedHellosAreStaleNotRestarts() {
        HelloConfig fast = HelloConfig.builder().interval(Duration.ofMillis(10)).build();
        VirtualLink link = new VirtualLink(fast, 15);
        link.a.out.delay(5 * MS).jitter(30 * MS);
        link.b.out.delay(5 * MS).jitter(30 * MS);
        link.startBoth().runUntil(20 * SECOND);

        for (Node n : new Node[] {link.a, link.b}) {
            LinkMonitor m = n.monitor;
            assertThat(m.staleHellos()).as(n + " stale").isGreaterThan(100);
            assertThat(m.peerRestarts()).isZero();
            assertThat(m.statistics().downTransitions()).isZero();
            assertThat(m.statistics().minRttNanos()).isBetween(10 * MS, 20 * MS);
            assertThat(m.statistics().srttNanos()).isBetween(20 * MS, 70 * MS);
            assertThat(m.statistics().packetsLost()).isZero();
        }
    }

    @Test
    void clockOriginsNearOverflowDoNotMatter() {
        VirtualLink link = VirtualLink.withDelay(10 * MS, 16);
        link.a.clockOffset = Long.MAX_VALUE - 500 * MS;
        link.b.clockOffset = Long.MIN_VALUE + 123;
        link.startBoth();
        link.b.sendData(MS);
        link.runUntil(3 * SECOND);
        link.b.online = false;
        link.runFor(2 * SECOND);

        LinkStatistics s = link.a.monitor.statistics();
        assertThat(s.srttNanos()).isEqualTo(20 * MS);
        assertThat(s.jitterNanos()).isZero();
        assertThat(link.a.upsAt).hasSize(1);
        assertThat(link.a.downsAt).containsExactly(link.a.lastDeliveryAt + DEAD);
    }

    /** Stops data and lets hellos run long enough that every gap is delivered or declared. */
    private static void drain(VirtualLink link) {
        link.a.sendData(0);
        link.b.sendData(0);
        link.runFor(2 * SECOND);
    }
}
