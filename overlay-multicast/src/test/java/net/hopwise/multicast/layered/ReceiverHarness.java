package net.hopwise.multicast.layered;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/** An ERA receiver fed by hand: announcements, packet pairs of chosen dispersion, gaps, virtual time. */
final class ReceiverHarness {
    static final int SESSION = 7;
    final LayerRates layers;
    final EraConfig config;
    final SessionAnnouncement announcement;
    final List<EraDecision> decisions = new ArrayList<>();
    final List<String> subscriptions = new ArrayList<>();
    final EraReceiver receiver;
    final long[] psn;
    long now = 1_000_000_000L;

    ReceiverHarness(LayerRates layers, EraConfig config, RttEstimator rtt) {
        this.layers = layers;
        this.config = config;
        this.announcement = new SessionAnnouncement(SESSION, 1, config.packetBytes(),
                config.adaptationIntervalNanos() / 1000, 1, 1_000_000, 0, 1_000_000, layers);
        this.psn = new long[layers.count()];
        this.receiver = new EraReceiver(SESSION, config, rtt, new LayerSubscriber() {
            @Override
            public void join(int layer, long nowNanos) {
                subscriptions.add("+" + layer);
            }

            @Override
            public void leave(int layer, long nowNanos) {
                subscriptions.add("-" + layer);
            }
        }, decisions::add);
    }

    ReceiverHarness() {
        this(LayerRates.equal(100, 20_000), EraConfig.defaults(), RttEstimator.fixed(Duration.ofMillis(50)));
    }

    /** The announcement arrives now (epoch start 1 s on a clock equal to ours) and the application joins. */
    ReceiverHarness joined() {
        receiver.onAnnouncement(announcement.sentAt(now / 1000), now);
        receiver.join(now);
        return this;
    }

    /** A pair on {@code layer} whose second packet arrives {@code 8M/bps} after the first. */
    void pair(int layer, double bps) {
        long gap = Math.round(8.0 * config.packetBytes() * 1e9 / bps);
        packet(layer, true);
        now += gap;
        packet(layer, false);
    }

    void packet(int layer, boolean first) {
        receiver.onPacket(new LayeredPacket(SESSION, 1, layer, psn[layer]++, now / 1000, first, 2, 1), now);
    }

    /** {@code n} packets of {@code layer} are lost on the way. */
    void lose(int layer, int n) {
        psn[layer] += n;
    }

    /** Advances to {@code t}, firing the receiver's timer at each deadline on the way. */
    void advanceTo(long t) {
        while (receiver.nextDeadlineNanos() <= t) {
            now = Math.max(now, receiver.nextDeadlineNanos());
            receiver.onTimer(now);
        }
        now = t;
    }

    void advance(Duration d) {
        advanceTo(now + d.toNanos());
    }

    EraDecision last(EraDecision.Kind kind) {
        for (int i = decisions.size() - 1; i >= 0; i--) {
            if (decisions.get(i).kind() == kind) {
                return decisions.get(i);
            }
        }
        return null;
    }

    /**
     * Joined on 100 layers of 20 Kbit/s with a fixed 50 ms round trip, three pairs reading 1 Mbit/s,
     * then the first boundary: at 49 layers (980 Kbit/s).
     */
    static ReceiverHarness atCapacity(EraConfig config) {
        ReceiverHarness h = new ReceiverHarness(LayerRates.equal(100, 20_000), config,
                RttEstimator.fixed(Duration.ofMillis(50))).joined();
        for (int i = 0; i < 3; i++) {
            h.pair(0, 1_000_000);
        }
        h.advanceTo(2_000_000_000L);
        if (h.receiver.level() != 48) {
            throw new AssertionError("expected 49 layers at the first boundary, got level " + h.receiver.level());
        }
        return h;
    }

    /** The live benchmark's session: 40 layers of 100 Kbit/s, 1000-byte packets, a 2 Mbit/s bottleneck. */
    static final LayerRates LIVE_LAYERS = LayerRates.equal(40, 100_000);
    static final int LIVE_PACKET = 1000;
    /** A 1000-byte packet's time at the 2 Mbit/s bottleneck: a pair not split reads the capacity. */
    static final long LIVE_PACKET_TIME = 8L * LIVE_PACKET * 1_000_000_000L / 2_000_000;
    static final long LIVE_BASE_DELAY = 10_000_000L;

    /**
     * Joined on the live layers at 1 s with a fixed 100 ms round trip; the first interval's pairs read
     * the capacity, {@code bps} and the capacity, none lost; its boundary at 2 s sets the level.
     */
    static ReceiverHarness joinedLive(EraConfig rules, double bps) {
        ReceiverHarness h = new ReceiverHarness(LIVE_LAYERS, rules.toBuilder().packetBytes(LIVE_PACKET).build(),
                RttEstimator.fixed(Duration.ofMillis(100))).joined();
        h.pair(0, 2_000_000);
        h.now += 300_000_000L;
        h.pair(0, bps);
        h.now += 300_000_000L;
        h.pair(0, 2_000_000);
        h.advanceTo(2_000_000_000L);
        return h;
    }

    /**
     * The sender's pairs of the layers the receiver holds, in turn, at their cumulative rate from
     * {@code now} (the sender's clock is the receiver's), each arriving after the base delay and the
     * queue it met at the live bottleneck, a pair's second packet one packet time behind its first;
     * none lost. The receiver's timers fire on the way; out of the session, nothing arrives.
     */
    void feedLive(LongUnaryOperator queue, long sendUntil) {
        long arrival = now;
        int turn = 0;
        for (long sent = now; sent < sendUntil; ) {
            int level = receiver.level();
            if (level < 0) {
                advanceTo(Math.max(now, sent));
                sent += 10_000_000L;
                continue;
            }
            int layer = turn++ % (level + 1);
            long first = Math.max(arrival, sent + LIVE_BASE_DELAY + queue.applyAsLong(sent));
            for (int k = 0; k < 2; k++) {
                arrival = first + k * LIVE_PACKET_TIME;
                advanceTo(arrival);
                receiver.onPacket(new LayeredPacket(SESSION, 1, layer, psn[layer]++, sent / 1000, k == 0, 2, 1), arrival);
            }
            sent += 2 * 8L * LIVE_PACKET * 1_000_000_000L / layers.cumulative(level);
        }
        advanceTo(Math.max(now, sendUntil));
    }
}
