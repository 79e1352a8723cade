package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Loss events counted as TCP meets congestion ({@link EraConfig#friendly()}): one per congestion
 * episode however many round trips it lasts ({@link EraConfig.Builder#lossEpisodeRtts}), and none
 * opened by a bunch's own burst ({@link EraConfig.Builder#pacedLoss}). Virtual time: packets carry
 * their send times.
 */
class LossEpisodeTest {
    private static final long MS = 1_000_000L;
    private static final long RTT = 150 * MS;

    /**
     * One layer of pairs every 20 ms; while the queue is full (send times in {@code [from, to)}) the
     * second packet of every other pair is lost, as beside TCP at the top of its sawtooth, where the
     * queue stays full for two to three round trips until TCP loses and halves.
     */
    private static LossHistory feed(LossHistory h, long[][] fullSpans) {
        long seq = 0;
        int k = 0;
        for (long t = 0; t < 3000 * MS; t += 20 * MS, k++) {
            boolean full = false;
            for (long[] span : fullSpans) {
                full |= t >= span[0] && t < span[1];
            }
            h.onPacket(0, seq, t, 2, RTT);
            if (!(full && k % 2 == 0)) {
                h.onPacket(0, seq + 1, t, 2, RTT);
            }
            seq += 2;
        }
        return h;
    }

    @Test
    void anEpisodeOfSeveralRoundTripsIsOneEventWhenLossesExtendIt() {
        long[][] episode = {{1000 * MS, 1400 * MS}};
        // TFRC's grouping (one round trip from an event's first loss): the 400 ms episode is three events.
        assertThat(feed(new LossHistory(1, () -> 1000), episode).events()).isEqualTo(3);
        // Chained over two round trips: one, as TCP halves once in it.
        assertThat(feed(new LossHistory(1, () -> 1000, 2, true, true), episode).events()).isOne();

        // Two episodes a second apart stay two.
        long[][] two = {{1000 * MS, 1400 * MS}, {2400 * MS, 2800 * MS}};
        assertThat(feed(new LossHistory(1, () -> 1000, 2, true, true), two).events()).isEqualTo(2);
    }

    @Test
    void aPacketLostBehindAnArrivedPacketOfItsBunchOpensNoEvent() {
        long[][] episode = {{1000 * MS, 1400 * MS}};
        // Only pairs' second packets are lost: the bunch's own burst met a queue one packet from full.
        LossHistory paced = feed(new LossHistory(1, () -> 1000, 1, false, false), episode);
        assertThat(paced.events()).isZero();
        assertThat(paced.rate()).isZero();

        // A pair lost whole (its first packet too) opens one, and the tails sent near it join it.
        LossHistory h = new LossHistory(1, () -> 1000, 1, false, false);
        long seq = 0;
        int events = 0;
        for (long t = 0; t < 2000 * MS; t += 20 * MS, seq += 2) {
            boolean whole = t == 1000 * MS;
            boolean tail = t > 1000 * MS && t < 1100 * MS;
            if (!whole) {
                h.onPacket(0, seq, t, 2, RTT);
                if (!tail) {
                    h.onPacket(0, seq + 1, t, 2, RTT);
                }
            }
            events = (int) h.events();
        }
        assertThat(events).isOne();
    }

    @Test
    void aFriendlyReceiverCountsAnEpisodeOnceWhereErasTfrcCountsEachRoundTripAndEachTail() {
        // Without the queue rule, which would leave layers as the queue grows.
        assertThat(eventsInAnEpisode(EraConfig.tfrc().toBuilder().queueRise(java.time.Duration.ZERO).build()))
                .isEqualTo(3);
        assertThat(eventsInAnEpisode(EraConfig.friendly().toBuilder().queueRise(java.time.Duration.ZERO).build())).isOne();
    }

    /**
     * Four layers of 200 Kbit/s (pairs 41 ms apart on each), joined at 1 s, all held from 2 s; from
     * 2.3 s to 2.75 s of send time (three round trips of 150 ms) the queue is full: one pair lost
     * whole, then the second packet of every other pair. The loss events the receiver counted by 2.95 s.
     */
    private static long eventsInAnEpisode(EraConfig config) {
        ReceiverHarness h = new ReceiverHarness(LayerRates.equal(4, 200_000), config,
                RttEstimator.fixed(java.time.Duration.ofMillis(150))).joined();
        h.pair(0, 2_000_000);
        h.advanceTo(2_000 * MS);
        assertThat(h.receiver.level()).isEqualTo(3);
        long spacing = 2L * 512 * 8 * 1_000_000_000L / 200_000;
        int k = 0;
        for (long t = 2_000 * MS; t < 2_950 * MS; t += spacing / 4, k++) {
            int layer = k % 4;
            long sent = t - 20 * MS;
            boolean whole = sent >= 2_300 * MS && sent < 2_300 * MS + spacing / 4;
            boolean tail = sent >= 2_300 * MS && sent < 2_750 * MS && k % 2 == 0;
            long psn = h.psn[layer];
            h.psn[layer] += 2;
            h.advanceTo(t);
            if (!whole) {
                h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, layer, psn, sent / 1000, true, 2, 1), t);
                if (!tail) {
                    h.receiver.onPacket(new LayeredPacket(ReceiverHarness.SESSION, 1, layer, psn + 1, sent / 1000, false, 2, 1),
                            t + MS);
                }
            }
        }
        assertThat(h.receiver.level()).isEqualTo(3);
        return h.receiver.lossEvents();
    }

    @Test
    void theFriendlyPresetIsTfrcWithEpisodesAndTheOptionsNeedTheHistory() {
        EraConfig f = EraConfig.friendly();
        assertThat(f.lossHistory()).isTrue();
        assertThat(f.lossEpisodeRtts()).isPositive();
        assertThat(f.toBuilder().build().lossEpisodeRtts()).isEqualTo(f.lossEpisodeRtts());
        // ERA_PROMPT, which the live benchmark runs, keeps its meaning.
        assertThat(EraConfig.prompt().lossEpisodeRtts()).isZero();
        assertThat(EraConfig.prompt().pacedLoss()).isFalse();
        assertThatThrownBy(() -> EraConfig.builder().lossEpisodeRtts(2).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lossHistory");
        assertThatThrownBy(() -> EraConfig.builder().lossHistory(true).lossEpisodeRtts(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
