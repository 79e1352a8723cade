package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** TFRC's loss-event history (RFC 5348, section 5) as {@link LossHistory} keeps it. */
class LossHistoryTest {
    private static final long MS = 1_000_000L;
    private static final long RTT = 50 * MS;

    @Test
    void theRateIsOneOverTheWeightedMeanOfTheLastEightIntervals() {
        LossHistory h = new LossHistory(1, () -> 100);
        // Pairs every 20 ms on one layer; one packet lost every 100 (a second apart: separate events).
        for (long seq = 0; seq < 950; seq++) {
            if (seq % 100 == 0 && seq > 0) {
                continue;
            }
            h.onPacket(0, seq, seq / 2 * 20 * MS, 2, RTT);
        }
        assertThat(h.events()).isEqualTo(9);
        // Eight closed intervals of 100 (the seeded one pushed out), the open one 50: the mean is 100.
        assertThat(h.rate()).isCloseTo(0.01, within(1e-12));

        // The open interval counts once it would lower the rate: 700 packets since the last loss.
        for (long seq = 950; seq < 1600; seq++) {
            h.onPacket(0, seq, seq / 2 * 20 * MS, 2, RTT);
        }
        // (700 + 100 x (1 + 1 + 1 + 0.8 + 0.6 + 0.4 + 0.2)) / 6 = 200.
        assertThat(h.rate()).isCloseTo(0.005, within(1e-12));
    }

    @Test
    void theFirstEventSeedsTheHistoryWithTheIntervalItIsGiven() {
        LossHistory h = new LossHistory(1, () -> 400);
        assertThat(h.rate()).isZero();
        for (long seq = 0; seq < 60; seq++) {
            if (seq != 30) {
                h.onPacket(0, seq, seq * MS, 2, RTT);
            }
        }
        assertThat(h.events()).isOne();
        // The seeded 400 against an open interval of 30: the seed holds.
        assertThat(h.rate()).isCloseTo(1 / 400.0, within(1e-12));
    }

    @Test
    void lossesSentWithinOneRoundTripAreOneEventHoweverLateEachLayerSeesThem() {
        // 40 layers of pairs 409.6 ms apart, layer j's bunches offset by j x 10.24 ms. A queue
        // overflows for 45 ms of send time: the pairs of five layers are lost whole, each seen only
        // at its layer's next pair, 409.6 ms after it was sent.
        long spacing = 409_600_000L;
        long overflowFrom = 2 * spacing + 100 * MS;
        LossHistory h = new LossHistory(40, () -> 1000);
        LayerLossMonitor byArrival = new LayerLossMonitor(40, 5);
        int lost = 0;
        for (int k = 0; k < 6; k++) {
            for (int j = 0; j < 40; j++) {
                long sent = k * spacing + j * 10_240_000L;
                boolean dropped = sent >= overflowFrom && sent < overflowFrom + 45 * MS;
                for (int i = 0; i < 2; i++) {
                    if (dropped) {
                        lost++;
                        continue;
                    }
                    // Arrival: the send time plus a fixed path; the two feeds see the same packets.
                    h.onPacket(j, 2L * k + i, sent, 2, RTT);
                    byArrival.onPacket(j, 2L * k + i, sent + 30 * MS, RTT);
                }
            }
        }
        assertThat(lost).isEqualTo(10);
        assertThat(h.events()).isOne();
        // The window's loss events (by the instant each gap was seen, also one round trip long) agree here,
        // since every layer is seen one spacing late; what differs is below.
        assertThat(byArrival.losses()).isOne();
    }

    @Test
    void aLossSeenOnASlowLayerJoinsTheEventAFastLayerOpenedEarlier() {
        // A fast layer (pairs every 20 ms) and a slow one (pairs every 400 ms). An overflow at 1000-1040 ms
        // of send time takes packets of both; the fast layer sees its gap at once, the slow one 400 ms later.
        LossHistory h = new LossHistory(2, () -> 1000);
        LayerLossMonitor byArrival = new LayerLossMonitor(2, 5);
        long slowSeq = 0;
        long fastSeq = 0;
        for (long t = 0; t < 2000 * MS; t += 20 * MS) {
            boolean overflow = t >= 1000 * MS && t < 1040 * MS;
            for (int i = 0; i < 2; i++, fastSeq++) {
                if (!overflow) {
                    h.onPacket(0, fastSeq, t, 2, RTT);
                    byArrival.onPacket(0, fastSeq, t + 30 * MS, RTT);
                }
            }
            if (t % (400 * MS) == 200 * MS) {
                for (int i = 0; i < 2; i++, slowSeq++) {
                    if (!overflow) {
                        h.onPacket(1, slowSeq, t, 2, RTT);
                        byArrival.onPacket(1, slowSeq, t + 30 * MS, RTT);
                    }
                }
            }
        }
        assertThat(h.events()).isOne();
        // By the instant each gap was seen: two events, 400 ms apart, for one overflow.
        assertThat(byArrival.losses()).isEqualTo(2);
    }
}
