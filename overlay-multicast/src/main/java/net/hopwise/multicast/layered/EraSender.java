package net.hopwise.multicast.layered;

import java.util.Objects;

/**
 * The ERA source, sans-IO: every layer at its constant rate, in bunches of B packets back to back
 * with the first-packet flag on the first, bunches spaced {@code B 8 M / L_j} apart so the layer's
 * average rate is exact, and an announcement every {@code n} adaptation intervals.
 *
 * <p>It keeps no per-receiver state and takes no feedback: it has no input but time, and its state
 * is a fixed number of counters per layer, whatever the number of receivers (a test holds it to
 * that). Receivers choose their rate by joining and leaving layers alone.
 *
 * <p>Layer {@code j} is offset in phase by the fractional part of {@code j} times the golden ratio,
 * of its bunch spacing: then the layers of any level (a prefix 0..i) have their bunches spread
 * evenly over time, instead of one burst of {@code (i + 1) B} packets per tick that a small
 * bottleneck queue would drop. The bunch's own packets stay back to back, which is what the
 * receivers' estimate needs.
 */
public final class EraSender {
    private static final double GOLDEN = (Math.sqrt(5) - 1) / 2;
    private final int sessionId;
    private final long objectId;
    private final LayerRates layers;
    private final EraConfig config;
    private final LayeredOutput output;
    private final long startNanos;
    private final SessionAnnouncement announcement;
    private final long announceEveryNanos;
    /** Per layer: bunches sent so far, and the next PSN. */
    private final long[] bunches;
    private final long[] sequences;
    private final double[] spacingNanos;
    private final double[] phaseNanos;
    private long announcements;
    private long packetsSent;

    /**
     * @param startNanos the first interval boundary: the epoch start every receiver aligns to
     * @param objectLength bytes of the object, or 0 for a stream
     */
    public EraSender(int sessionId, long objectId, LayerRates layers, EraConfig config, long objectLength,
            long startNanos, LayeredOutput output) {
        this.sessionId = sessionId;
        this.objectId = objectId;
        this.layers = Objects.requireNonNull(layers, "layers");
        this.config = Objects.requireNonNull(config, "config");
        this.output = Objects.requireNonNull(output, "output");
        this.startNanos = startNanos;
        this.announcement = new SessionAnnouncement(sessionId, 1, config.packetBytes(),
                Math.max(1, config.adaptationIntervalNanos() / 1000), config.announceEveryIntervals(),
                Math.floorDiv(startNanos, 1000), objectLength, Math.floorDiv(startNanos, 1000), layers);
        this.announceEveryNanos = config.adaptationIntervalNanos() * config.announceEveryIntervals();
        int n = layers.count();
        this.bunches = new long[n];
        this.sequences = new long[n];
        this.spacingNanos = new double[n];
        this.phaseNanos = new double[n];
        for (int j = 0; j < n; j++) {
            spacingNanos[j] = config.bunchLength() * 8.0 * config.packetBytes() * 1e9 / layers.rate(j);
            phaseNanos[j] = spacingNanos[j] * ((j * GOLDEN) % 1.0);
        }
    }

    public SessionAnnouncement announcement() {
        return announcement;
    }

    public LayerRates layers() {
        return layers;
    }

    public long packetsSent() {
        return packetsSent;
    }

    private long nextBunchNanos(int j) {
        return startNanos + Math.round(phaseNanos[j] + bunches[j] * spacingNanos[j]);
    }

    private long nextAnnouncementNanos() {
        return startNanos + announcements * announceEveryNanos;
    }

    public long nextDeadlineNanos() {
        long next = nextAnnouncementNanos();
        for (int j = 0; j < bunches.length; j++) {
            next = Math.min(next, nextBunchNanos(j));
        }
        return next;
    }

    /** Sends everything due at or before {@code nowNanos}, each as of its due instant's order, stamped now. */
    public void onTimer(long nowNanos) {
        while (nextAnnouncementNanos() <= nowNanos) {
            announcements++;
            output.announce(announcement.sentAt(Math.floorDiv(nowNanos, 1000)), nowNanos);
        }
        for (int j = 0; j < bunches.length; j++) {
            while (nextBunchNanos(j) <= nowNanos) {
                bunches[j]++;
                sendBunch(j, nowNanos);
            }
        }
    }

    private void sendBunch(int layer, long nowNanos) {
        long sct = Math.floorDiv(nowNanos, 1000);
        for (int k = 0; k < config.bunchLength(); k++) {
            long psn = sequences[layer];
            sequences[layer] = (psn + 1) & 0xFFFF_FFFFL;
            packetsSent++;
            output.data(new LayeredPacket(sessionId, objectId, layer, psn, sct, k == 0, config.bunchLength(),
                    announcement.epoch()), nowNanos);
        }
    }
}
