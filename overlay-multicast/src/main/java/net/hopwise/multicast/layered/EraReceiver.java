package net.hopwise.multicast.layered;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An ERA receiver, sans-IO: it measures its path with the sender's packet bunches and its loss
 * from sequence gaps, and once per adaptation interval moves to the level its target rate allows
 * (Puangpronpitag 2003, chapter 5):
 *
 * <ol>
 *   <li>every sample {@code R'_pp} below the subscribed rate {@code R_i} drops layers at once, to the
 *       highest level below the sample;
 *   <li>at each interval boundary {@code R_pp} = the minimum sample, or -1 when fewer than the
 *       minimum arrived;
 *   <li>with loss {@code l > 0}, {@code R_TCP} from Padhye's equation, and the target is
 *       {@code min(R_TCP, R_pp)}, or {@code R_TCP} when {@code R_pp = -1}; without loss the target
 *       is {@code R_pp}, and with too few samples as well the level holds and the window extends;
 *   <li>the receiver joins or leaves as many layers as the target allows, leaving the session
 *       (EXIT) when not even the base layer fits, and rejoining the base layer after a back-off
 *       (with {@link EraConfig#strictWithLoss()} false, a decision made with loss takes the layers
 *       at most the target rather than strictly below it; with {@link EraConfig#exitIntervals()} n,
 *       only the n-th interval decision in a row under the base layer with loss in the window leaves,
 *       and no drop between boundaries does).
 * </ol>
 *
 * Interval boundaries are the announcement's epoch start plus whole intervals, mapped onto this
 * receiver's clock by the announcement's arrival, so every receiver behind one bottleneck decides
 * at the same instants. The receiver refuses to join before a valid announcement of its session.
 * It reads no clock: every input carries {@code nowNanos}. About 510 lines: the rules' options
 * (rise cap, loss history and its events a second, queue growth, drain and share, additive rise,
 * the exit's intervals) act inside one decision, which reads best whole.
 */
public final class EraReceiver {
    private static final int TRACE_SAMPLES = 64;

    private final int sessionId;
    private final EraConfig config;
    private final RttEstimator rtt;
    private final LayerSubscriber subscriber;
    private final Consumer<EraDecision> trace;
    private final BunchProbe probe = new BunchProbe();
    /** Null when {@link EraConfig#queueRiseNanos()} is zero (the thesis's rules). */
    private final QueueGrowthDetector queue;

    private SessionAnnouncement announcement;
    private long offsetNanos = Long.MAX_VALUE;
    private LayerLossMonitor loss;
    /** Null unless {@link EraConfig#lossHistory()}. */
    private LossHistory history;
    /** Packets received since the last interval decision (or the join), for the rate received. */
    private long intervalPackets;
    private long intervalStartNanos;
    /** The rate received over the span before the last decision, bits per second; -1 before one. */
    private double receivedBps = -1;
    /** A decision since the join saw loss: the rise cap applies from then on, as TFRC's after its slow start. */
    private boolean lossSeen;
    private boolean wanted;
    private int level = -1;
    private long nextBoundary = Long.MAX_VALUE;
    private long lastPacketNanos;
    private long exitedAtNanos = -1;
    private double[] samples = new double[16];
    private int sampleCount;
    private double minSample = Double.POSITIVE_INFINITY;
    /** The lowest sample of this interval, stability drops included (they clear {@link #minSample}). */
    private double intervalLowest = Double.POSITIVE_INFINITY;
    /** The lowest samples of the last intervals before this one, for {@link EraConfig#estimateIntervals()}. */
    private double[] recentLowest = new double[0];
    private int recentAt;
    /** No interval decision yet since the join: {@link EraConfig#startSamples()} applies. */
    private boolean firstDecision;
    /** The level the last congestion drop left, climbed back to additively ({@link EraConfig#additiveRise()}); -1: none. */
    private int recoverTo = -1;
    /** Interval decisions in a row, with loss in the window, whose target was under the base layer's rate ({@link EraConfig#exitIntervals()}). */
    private int underBase;

    private long refusedAnnouncements;
    private long unsubscribedPackets;
    private long packetsReceived;
    private long levelChanges;

    public EraReceiver(int sessionId, EraConfig config, RttEstimator rtt, LayerSubscriber subscriber,
            Consumer<EraDecision> trace) {
        this.sessionId = sessionId;
        this.config = Objects.requireNonNull(config, "config");
        this.rtt = Objects.requireNonNull(rtt, "rtt");
        this.subscriber = Objects.requireNonNull(subscriber, "subscriber");
        this.trace = trace == null ? d -> { } : trace;
        this.recentLowest = new double[config.estimateIntervals() - 1];
        Arrays.fill(recentLowest, Double.POSITIVE_INFINITY);
        this.queue = config.queueRiseNanos() > 0
                ? new QueueGrowthDetector(config.queueRiseNanos(), config.queueWindowNanos(), config.queueFloorPackets()) : null;
    }

    /**
     * The application wants the stream. Joins the base layer at once when a valid announcement
     * arrived, or as soon as one does.
     *
     * @return true when the base layer was joined now
     */
    public boolean join(long nowNanos) {
        wanted = true;
        if (announcement == null || level >= 0) {
            return false;
        }
        start(nowNanos, EraDecision.Kind.START);
        return true;
    }

    /** The application is done: every layer is left. */
    public void leave(long nowNanos) {
        wanted = false;
        moveTo(-1, nowNanos);
        nextBoundary = Long.MAX_VALUE;
        exitedAtNanos = -1;
    }

    /** An announcement arrived (decoded, so well formed); one of another session, or one that changes the layers mid-session, is refused. */
    public void onAnnouncement(SessionAnnouncement a, long nowNanos) {
        if (a.sessionId() != sessionId || (announcement != null && !announcement.layers().equals(a.layers()))) {
            refusedAnnouncements++;
            return;
        }
        // The smallest (arrival - sent) seen: the one-way delay with the least queueing, plus any clock offset.
        offsetNanos = Math.min(offsetNanos, nowNanos - a.sentAtMicros() * 1000);
        if (announcement == null) {
            announcement = a;
            loss = new LayerLossMonitor(a.layers().count(),
                    (int) Math.max(1, Math.ceil((double) config.lossWindowNanos() / a.intervalNanos())));
            if (config.lossHistory()) {
                // RFC 5348, section 6.3.1: the first interval is the one that gives the rate received before it.
                history = new LossHistory(a.layers().count(), () -> 1 / TcpFriendlyRate.lossRateFor(
                        receivedBps > 0 ? receivedBps : Math.max(1, rateBitsPerSecond()), rtt.rttSeconds(),
                        a.packetBytes(), config.rtoFactor()), config.lossEpisodeRtts() > 0 ? config.lossEpisodeRtts() : 1,
                        config.lossEpisodeRtts() > 0, !config.pacedLoss(), config.lossEpisodeMaxRtts(),
                        config.lossEventIntervals());
            }
            if (wanted) {
                start(nowNanos, EraDecision.Kind.START);
            }
        }
    }

    public void onPacket(LayeredPacket p, long nowNanos) {
        if (announcement == null || p.sessionId() != sessionId || p.layer() > level) {
            unsubscribedPackets++;
            return;
        }
        packetsReceived++;
        lastPacketNanos = nowNanos;
        rtt.onPacket(p.sendTimeMicros(), nowNanos);
        loss.onPacket(p.layer(), p.sequence(), nowNanos,
                config.lossEvents() ? (long) (rtt.rttSeconds() * 1e9) : 0);
        intervalPackets++;
        if (history != null) {
            // One event spans the round trip the equation takes, so that the rate it is given and
            // the round trip it divides by agree (see docs/layered-multicast.md, "ERA_TFRC").
            history.onPacket(p.layer(), p.sequence(), p.sendTimeMicros() * 1000, p.bunchLength(),
                    (long) (rtt.rttSeconds() * 1e9));
        }
        double sample = probe.onPacket(p, announcement.packetBytes(), nowNanos);
        if (queue != null) {
            if (!Double.isNaN(sample)) {
                queue.onSample(sample);
            }
            double keep = queue.onPacket(p.sendTimeMicros() * 1000, nowNanos, rateBitsPerSecond(), announcement.packetBytes());
            // Only on a path without loss in the window: there the first overflow is what the rule
            // spares. Beside TCP the queue fills every sawtooth and the TCP equation shares the path;
            // dropping on its growth too (and remembering the drop over the estimate's intervals)
            // left TCP two thirds of it (F 0.56-0.60).
            if (keep < rateBitsPerSecond() && loss.rate() == 0 && !onKeptBase()) {
                int from = level;
                // The rate the queue says is left counts as a sample: the estimate over the next
                // intervals remembers it, as a stability drop's, and does not rejoin on pairs the
                // cross traffic happened not to split.
                if (!Double.isNaN(sample)) {
                    addSample(sample);
                }
                drop(keep, EraDecision.Kind.QUEUE_DROP, nowNanos);
                if (config.queueDrain() && from - level > 1) {
                    // A step of cross traffic, not a sawtooth: also empty what the step queued, within
                    // one interval, or the queue stays a few packets from full and jitter overflows it.
                    // Only the level: the estimate keeps the rate that is left, so the next boundary
                    // rejoins (at most twice what arrived).
                    // With the share option, only this session's part of the queue: every session behind the
                    // bottleneck sees the same step, and each emptying all of it left far more than the step took.
                    double share = config.queueDrainShare() ? queue.inputShare(announcement.layers().cumulative(from)) : 1;
                    double drained = Math.max(keep / 2, keep - share * queue.drainBps(announcement.intervalNanos() / 2));
                    int to = Math.min(level, queueDropLevel(drained));
                    trace.accept(EraDecision.event(nowNanos, EraDecision.Kind.QUEUE_DROP, drained, level, to));
                    moveTo(to, nowNanos);
                }
                congestionDrop(from, level);
                return;
            }
            if (config.queueOwnPackets() > 0 && loss.rate() == 0 && !onKeptBase() && overOwnQueue(nowNanos)) {
                return;
            }
        }
        if (Double.isNaN(sample)) {
            return;
        }
        if (announcement.layers().cumulative(level) > sample && !onKeptBase()) {
            drop(sample, EraDecision.Kind.STABILITY_DROP, nowNanos);
        } else {
            addSample(sample);
        }
    }

    private void drop(double sample, EraDecision.Kind kind, long nowNanos) {
        addSample(sample);
        int to = kind == EraDecision.Kind.QUEUE_DROP ? queueDropLevel(sample)
                : keepBase(announcement.layers().levelFor(sample, config.strictlyBelow()));
        trace.accept(EraDecision.event(nowNanos, kind, sample, level, to));
        clearSamples();
        moveTo(to, nowNanos);
        if (queue != null && kind != EraDecision.Kind.QUEUE_DROP) {
            queue.dropped(nowNanos);
        }
        // The next estimate gets a whole interval of samples, as the thesis's ns-2 code (PLM's
        // make_estimate) restarts its deadline at a stability drop: deciding at the next boundary,
        // perhaps a few milliseconds away, on the few pairs since, would rejoin on pairs that no
        // cross traffic happened to split. Skipping to a later boundary of the same epoch keeps
        // receivers behind one bottleneck together: the pair that dropped one dropped them all.
        long interval = announcement.intervalNanos();
        if (nextBoundary != Long.MAX_VALUE && nextBoundary - nowNanos < interval) {
            nextBoundary += interval;
        }
    }

    public long nextDeadlineNanos() {
        long next = nextBoundary;
        if (level >= 0) {
            next = Math.min(next, lastPacketNanos + config.silenceTimeoutNanos());
        } else if (exitedAtNanos >= 0 && wanted) {
            next = Math.min(next, exitedAtNanos + config.rejoinAfterNanos());
        }
        return next;
    }

    public void onTimer(long nowNanos) {
        if (level < 0 && exitedAtNanos >= 0 && wanted && nowNanos >= exitedAtNanos + config.rejoinAfterNanos()) {
            exitedAtNanos = -1;
            start(nowNanos, EraDecision.Kind.REJOIN);
        }
        if (level >= 0 && nowNanos >= lastPacketNanos + config.silenceTimeoutNanos()) {
            trace.accept(EraDecision.event(nowNanos, EraDecision.Kind.SILENCE_DROP, Double.NaN, level, level - 1));
            lastPacketNanos = nowNanos;
            moveTo(level - 1, nowNanos);
        }
        while (nextBoundary != Long.MAX_VALUE && nowNanos >= nextBoundary) {
            nextBoundary += announcement.intervalNanos();
            if (level >= 0) {
                adapt(nowNanos);
            }
        }
    }

    private void start(long nowNanos, EraDecision.Kind kind) {
        long interval = announcement.intervalNanos();
        long epoch = announcement.epochStartMicros() * 1000 + offsetNanos;
        nextBoundary = epoch + (Math.floorDiv(nowNanos - epoch, interval) + 1) * interval;
        lastPacketNanos = nowNanos;
        clearSamples();
        firstDecision = true;
        lossSeen = false;
        recoverTo = -1;
        underBase = 0;
        intervalPackets = 0;
        intervalStartNanos = nowNanos;
        if (queue != null) {
            queue.reset();
        }
        trace.accept(EraDecision.event(nowNanos, kind, Double.NaN, level, 0));
        moveTo(0, nowNanos);
    }

    private void adapt(long nowNanos) {
        LayerRates layers = announcement.layers();
        double bunchEstimate = sampleCount >= (firstDecision ? config.startSamples() : config.minSamples()) ? minSample : -1;
        if (recentLowest.length > 0) {
            // This interval's samples, those a stability drop cleared included, and the last n - 1 intervals'.
            double lowest = intervalLowest;
            for (double r : recentLowest) {
                lowest = Math.min(lowest, r);
            }
            recentLowest[recentAt] = intervalLowest;
            recentAt = (recentAt + 1) % recentLowest.length;
            if (bunchEstimate >= 0) {
                bunchEstimate = Math.min(bunchEstimate, lowest);
            }
        }
        intervalLowest = Double.POSITIVE_INFINITY;
        double l = loss.rate();
        long packets = loss.packets();
        long losses = loss.losses();
        loss.rotate();
        if (nowNanos > intervalStartNanos) {
            receivedBps = intervalPackets * 8.0 * announcement.packetBytes() * 1e9 / (nowNanos - intervalStartNanos);
        }
        intervalPackets = 0;
        intervalStartNanos = nowNanos;
        // The equation's loss rate: the window's, or TFRC's history, which does not forget.
        double p = history != null ? history.rate() : l;
        double rttSeconds = rtt.rttSeconds();
        double tcp;
        if (history != null && config.lossEventsPerSecond()) {
            double perSecond = history.eventsPerSecond();
            tcp = TcpFriendlyRate.forEventRate(perSecond, rttSeconds, announcement.packetBytes(), config.rtoFactor());
            // The loss-event rate the equation took: per packet of the rate it gave.
            p = perSecond > 0 ? perSecond * 8.0 * announcement.packetBytes() / tcp : 0;
        } else {
            tcp = TcpFriendlyRate.padhye(p, rttSeconds, announcement.packetBytes(), config.rtoFactor());
        }
        double target;
        if (p > 0) {
            target = bunchEstimate >= 0 ? Math.min(tcp, bunchEstimate) : tcp;
        } else if (bunchEstimate >= 0) {
            target = bunchEstimate * (1 - config.headroom());
        } else {
            trace.accept(new EraDecision(nowNanos, EraDecision.Kind.HOLD, traceSamples(), bunchEstimate, packets,
                    losses, p, rttSeconds, tcp, Double.NaN, level, level));
            return;
        }
        double current = layers.cumulative(level);
        lossSeen |= p > 0 || l > 0;
        // Also once the window has emptied again: a window that forgets would otherwise send the
        // target straight to a pair estimate that may read the capacity.
        boolean capped = false;
        if (config.riseCap() > 0 && lossSeen && target > current) {
            // TFRC's X = min(X_calc, 2 X_recv): a rise goes at most to that many times what arrived.
            target = Math.min(target, Math.max(current, config.riseCap() * receivedBps));
            capped = true;
        }
        // Whether the path is losing now: the window's, also with the history (which never empties).
        boolean strict = config.strictlyBelow() && (l == 0 || config.strictWithLoss());
        int to = layers.levelFor(target, strict);
        if (capped) {
            // The cap limits a rise; held at R_i, the strict choice would be the layer below it (and
            // on the base layer, out of the session).
            to = Math.max(to, level);
        }
        // Only a path losing now says that the base layer does not fit: a loss-free target under it
        // is an estimate that remembers a queue drop's rate, and the base layer arrived whole.
        underBase = to < 0 && l > 0 ? underBase + 1 : 0;
        if (to < 0 && config.exitIntervals() > 0 && underBase < config.exitIntervals()) {
            // One interval under the base layer is the congestion of the moment; a path that cannot
            // carry the base layer shows it interval after interval.
            to = 0;
        }
        if (config.additiveRise() > 0) {
            if (to > level && recoverTo > level) {
                // Additive: every session behind the bottleneck regains the same rate an interval.
                to = Math.min(to, level + config.additiveRise());
            }
            if (to >= recoverTo) {
                recoverTo = -1;
            }
        }
        firstDecision = false;
        trace.accept(new EraDecision(nowNanos, EraDecision.Kind.INTERVAL, traceSamples(), bunchEstimate, packets,
                losses, p, rttSeconds, tcp, target, level, to));
        clearSamples();
        moveTo(to, nowNanos);
    }

    /**
     * {@link EraConfig#queueOwnPackets()}: in a FIFO each session holds the part of the standing queue
     * its rate brings, R q, and every session behind one bottleneck reads the same q, so a cap of
     * n packets' worth, n 8 M / q, is the same rate for all of them: the sessions the queue finds over
     * it are the largest, and they give way first. Drops to the cap and remembers it as a sample, as
     * a queue drop does; true when it dropped.
     */
    private boolean overOwnQueue(long nowNanos) {
        double q = queue.standingNanos() / 1e9;
        double bits = 8.0 * announcement.packetBytes();
        if (q <= 0 || rateBitsPerSecond() * q <= config.queueOwnPackets() * bits) {
            return false;
        }
        double cap = config.queueOwnPackets() * bits / q;
        int from = level;
        int to = queueDropLevel(cap);
        trace.accept(EraDecision.event(nowNanos, EraDecision.Kind.QUEUE_DROP, cap, level, to));
        clearSamples();
        addSample(cap);
        moveTo(to, nowNanos);
        queue.dropped(nowNanos);
        congestionDrop(from, level);
        return true;
    }

    /**
     * The level a queue drop to {@code bps} leaves. With {@link EraConfig#additiveRise()} it keeps the
     * base layer: the queue says the path is full, not that the base layer does not fit.
     */
    private int queueDropLevel(double bps) {
        int to = announcement.layers().levelFor(bps, config.strictlyBelow());
        return config.additiveRise() > 0 ? Math.max(0, to) : keepBase(to);
    }

    /**
     * {@code to}, or the base layer with {@link EraConfig#exitIntervals()}: a bunch sample or a queue
     * rise reads the congestion of one moment, and only interval decisions in a row leave the session.
     */
    private int keepBase(int to) {
        return config.exitIntervals() > 0 ? Math.max(0, to) : to;
    }

    /**
     * On the base layer with {@link EraConfig#exitIntervals()} no drop is left to make: a sample is
     * kept for the interval's estimate, whose boundary (not pushed on, as a drop's is) counts it.
     */
    private boolean onKeptBase() {
        return level == 0 && config.exitIntervals() > 0;
    }

    /** A drop for congestion from {@code from}: with {@link EraConfig#additiveRise()}, the rise back is additive. */
    private void congestionDrop(int from, int to) {
        if (config.additiveRise() > 0 && to < from) {
            recoverTo = from;
        }
    }

    private void moveTo(int to, long nowNanos) {
        if (to == level) {
            return;
        }
        levelChanges++;
        while (level < to) {
            level++;
            loss.forget(level);
            if (history != null) {
                history.forget(level);
            }
            subscriber.join(level, nowNanos);
        }
        while (level > to) {
            loss.forget(level);
            if (history != null) {
                history.forget(level);
            }
            subscriber.leave(level, nowNanos);
            level--;
        }
        if (level < 0 && wanted) {
            exitedAtNanos = nowNanos;
        }
    }

    private void addSample(double sample) {
        if (sampleCount < TRACE_SAMPLES) {
            if (sampleCount == samples.length) {
                samples = Arrays.copyOf(samples, samples.length * 2);
            }
            samples[sampleCount] = sample;
        }
        sampleCount++;
        minSample = Math.min(minSample, sample);
        intervalLowest = Math.min(intervalLowest, sample);
    }

    private void clearSamples() {
        sampleCount = 0;
        minSample = Double.POSITIVE_INFINITY;
    }

    private double[] traceSamples() {
        return Arrays.copyOf(samples, Math.min(sampleCount, TRACE_SAMPLES));
    }

    /** The highest layer held, -1 when none. */
    public int level() {
        return level;
    }

    /** R_i of the level held, bits per second; 0 when none. */
    public long rateBitsPerSecond() {
        return level < 0 ? 0 : announcement.layers().cumulative(level);
    }

    public SessionAnnouncement announcement() {
        return announcement;
    }

    /** The next interval boundary on this receiver's clock, or {@link Long#MAX_VALUE} when not joined. */
    public long nextBoundaryNanos() {
        return nextBoundary;
    }

    public long refusedAnnouncements() {
        return refusedAnnouncements;
    }

    /** Packets of layers not held (in flight when a layer was left) or before any announcement. */
    public long unsubscribedPackets() {
        return unsubscribedPackets;
    }

    public long packetsReceived() {
        return packetsReceived;
    }

    public long levelChanges() {
        return levelChanges;
    }

    /** Loss events the history counted (one per round trip of send time); 0 without {@link EraConfig#lossHistory()}. */
    public long lossEvents() {
        return history == null ? 0 : history.events();
    }
}
