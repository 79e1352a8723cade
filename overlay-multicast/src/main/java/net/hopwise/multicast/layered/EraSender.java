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
 *
 * <p>Each bunch then moves from its place on that grid by a random offset of up to
 * {@link EraConfig#bunchJitter()} of the layer's spacing, either way. With exact spacing a layer's
 * bunches keep one phase against any other periodic traffic (a CBR flow, TCP's packets clocked by a
 * bottleneck whose packet time divides the spacing), so cross traffic splits the same layers'
 * pairs every time and the others' never, and the receivers' minimum sample sees the cross traffic
 * or not by accident of phase; ns-2's packet-pair source in the thesis's simulations randomised
 * its spacing for the same reason. The offset is bounded and about the grid, not a random walk
 * (ns-2 added up to half a spacing to each gap): a random walk soon spreads the layers' phases at
 * random, so that at 98% of a bottleneck the bunches of different layers pile up and overflow its
 * queue, where the even spread never queues more than a bunch or two; for the same reason
 * {@link EraConfig#bunchJitterCapNanos()} can bound the offset in time on slow layers, whose 2% are
 * more than the gap between two layers' bunches. The draws are a hash of
 * (seed, layer, bunch number), so what is sent still depends on time alone.
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
    private final long seed;
    private long announcements;
    private long packetsSent;

    /**
     * @param startNanos the first interval boundary: the epoch start every receiver aligns to
     * @param objectLength bytes of the object, or 0 for a stream
     */
    public EraSender(int sessionId, long objectId, LayerRates layers, EraConfig config, long objectLength,
            long startNanos, LayeredOutput output) {
        this(sessionId, objectId, layers, config, objectLength, startNanos, output, sessionId);
    }

    /**
     * @param seed where the spacings' jitter comes from: senders of the same seed send at the same
     *     instants
     */
    public EraSender(int sessionId, long objectId, LayerRates layers, EraConfig config, long objectLength,
            long startNanos, LayeredOutput output, long seed) {
        this.seed = seed;
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
        long k = bunches[j];
        return startNanos + Math.round(phaseNanos[j] + (k + offset(j, k)) * spacingNanos[j]);
    }

    /** Where bunch {@code k} of layer {@code j} sits about its grid point, in spacings: uniform in +- jitter. */
    private double offset(int j, long k) {
        double jitter = config.bunchJitter();
        long cap = config.bunchJitterCapNanos();
        // Half a nanosecond of slack: a cap equal to the proportional jitter leaves the draws as they were.
        if (cap > 0 && jitter * spacingNanos[j] > cap + 0.5) {
            jitter = cap / spacingNanos[j];
        }
        if (jitter == 0) {
            return 0;
        }
        long z = seed + 0x9E37_79B9_7F4A_7C15L * (1 + j) + 0xBF58_476D_1CE4_E5B9L * k;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        z ^= z >>> 31;
        double u = (z >>> 11) * 0x1.0p-53;
        // The first bunch only moves later, so that nothing is due before the start.
        return k == 0 ? jitter * u : jitter * (2 * u - 1);
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
