package net.hopwise.examples.layered;

import java.util.Arrays;
import java.util.SplittableRandom;
import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;

/**
 * RLM (McCanne, Jacobson and Vetterli 1996), written from the paper's design with the ns-2 reference
 * parameters the digest lists (section 2.1).
 *
 * <p>Join experiments on a per-layer join timer T_J drawn as {@code T_J/2 + X}, X exponential of mean
 * T_J truncated to [0, T_J] (the exponential conditioned on that range: no mass piles up at the bound,
 * and the timer spans T_J/2..3T_J/2 as the uniform draw it replaced did); T_J starts at 5 s, doubles
 * (to at most 60 s) when an experiment fails and relaxes x0.75 (to at least 5 s) when one succeeds.
 *
 * <p>The paper's states. Measurement: the detection timer after a join; the experiment fails, and the
 * layer goes at once, when more than 25% of at least 10 packets are lost counting from the loss's
 * onset (from the join, the loss-free time the queue takes to fill would dilute it), and succeeds when
 * the timer runs out first. Steady: a loss opens the same measurement for one detection timer, which
 * drops a layer when it shows congestion. Drop, a moment, then hysteresis: one detection timer whose
 * loss is ignored while the drop takes effect. The detection timer is estimated from failed
 * experiments, the time from the join to the loss's onset smoothed (gains 0.25) into a mean from 5 s
 * and a mean deviation from 2 s: the timer is the mean plus two deviations (the factor is ours; the
 * paper sets the timer from both, and two keeps a loss somewhat later than usual inside it).
 *
 * <p>Shared learning through the session's {@link RlmSharedLearning} (null: each receiver alone): a
 * receiver multicasts "add L" before it joins L. A receiver below L that is not in hysteresis
 * watches the experiment for its own detection timer from the message's arrival; loss meanwhile is the
 * experiment's, never a reason to drop or to fail an experiment of its own on a lower layer, and once
 * it amounts to congestion the receiver backs off its own join timer for L. A join timer that fires
 * while an experiment on a lower layer runs waits for its end; one on the same layer may run at once.
 */
final class RlmReceiver implements LayeredController {
    static final long INITIAL_JOIN = 5_000_000_000L;
    static final long MAX_JOIN = 60_000_000_000L;
    static final long INITIAL_DETECTION = 5_000_000_000L;
    static final long INITIAL_DEVIATION = 2_000_000_000L;
    static final double GAIN = 0.25;
    static final int DEVIATIONS = 2;
    static final double LOSS_THRESHOLD = 0.25;
    static final int MIN_PACKETS = 10;
    /** P(X <= T_J) for an exponential X of mean T_J: the truncated draw's inverse CDF scales by it. */
    private static final double WITHIN = -Math.expm1(-1);

    private enum State { STEADY, MEASUREMENT, HYSTERESIS }

    private final int sessionId;
    private final LayerSubscriber subscriber;
    private final SplittableRandom random;
    private final RlmSharedLearning.Member learning;
    private SessionAnnouncement announcement;
    private boolean wanted;
    private int level = -1;
    private long[] joinTimer;
    private long nextJoin = Long.MAX_VALUE;
    private State state = State.STEADY;
    /** When the measurement or the hysteresis ends. */
    private long stateEnd = Long.MAX_VALUE;
    private long joinedAt;
    private double detectionMean = INITIAL_DETECTION;
    private double detectionDeviation = INITIAL_DEVIATION;
    /** The receiver's own loss measurement, from the onset: the experiment's, or the steady state's until lossEnd. */
    private long onset = -1;
    private long lossEnd = Long.MAX_VALUE;
    private long npkts;
    private long nloss;
    /** The experiment above this receiver's level whose loss it is watching, -1 when none. */
    private int watched = -1;
    private long watchedEnd;
    private long watchedOnset = -1;
    private long wpkts;
    private long wloss;
    /** Whether the watched experiment's congestion has already backed off this receiver's timer. */
    private boolean watchLearnt;
    private long[] expected;
    private boolean[] synced;
    private long experiments;
    private long failedExperiments;
    private long deferrals;
    private long steadyDrops;
    private long learnedBackoffs;

    /** @param learning this receiver's end of the session's shared learning, null to run without */
    RlmReceiver(int sessionId, LayerSubscriber subscriber, long seed, RlmSharedLearning.Member learning) {
        this.sessionId = sessionId;
        this.subscriber = subscriber;
        this.random = new SplittableRandom(seed);
        this.learning = learning;
    }

    /**
     * A receiver of session 1 sharing the bus of the session {@code subscriber} belongs to (a
     * {@link LayeredSession.Receiver}), or alone when {@code shared} is false or there is no session.
     */
    static RlmReceiver inSession(LayerSubscriber subscriber, long seed, boolean shared) {
        RlmSharedLearning.Member member = shared && subscriber instanceof LayeredSession.Receiver r
                ? r.session().rlmLearning().member(r.node) : null;
        return new RlmReceiver(1, subscriber, seed, member);
    }

    /** One join-timer draw for a timer of {@code tj}: T_J/2 plus the truncated exponential. */
    static long drawJoin(SplittableRandom random, long tj) {
        return tj / 2 + (long) (-tj * Math.log1p(-random.nextDouble() * WITHIN));
    }

    @Override
    public void join(long now) {
        wanted = true;
        if (announcement != null && level < 0) {
            start(now);
        }
    }

    @Override
    public void onAnnouncement(SessionAnnouncement a, long now) {
        if (a.sessionId() != sessionId || announcement != null) {
            return;
        }
        announcement = a;
        int n = a.layers().count();
        joinTimer = new long[n];
        Arrays.fill(joinTimer, INITIAL_JOIN);
        expected = new long[n];
        synced = new boolean[n];
        if (wanted) {
            start(now);
        }
    }

    private void start(long now) {
        moveTo(0, now);
        enterSteady(now);
    }

    @Override
    public void onPacket(LayeredPacket p, long now) {
        hear(now);
        if (announcement == null || p.layer() > level) {
            return;
        }
        int j = p.layer();
        long lost = 0;
        if (synced[j]) {
            long gap = (p.sequence() - expected[j]) & 0xFFFF_FFFFL;
            if (gap >= 0x8000_0000L) {
                return;
            }
            lost = gap;
        }
        synced[j] = true;
        expected[j] = (p.sequence() + 1) & 0xFFFF_FFFFL;
        count(lost, now);
    }

    /**
     * Puts one received packet, and the {@code lost} ones before it, into whichever measurement is
     * running, and acts as soon as it shows congestion: RLM drops the offending layer at once, and the
     * detection timer only bounds how long a measurement waits for loss that has not come.
     */
    private void count(long lost, long now) {
        if (state == State.HYSTERESIS) {
            return;
        }
        if (watched >= 0) {
            if (lost > 0 && watchedOnset < 0) {
                watchedOnset = now;
            }
            if (watchedOnset >= 0) {
                wpkts++;
                wloss += lost;
                if (!watchLearnt && congested(wpkts, wloss)) {
                    watchLearnt = true;
                    learnedBackoffs++;
                    backOff(watched);
                    if (watched == level + 1 && state == State.STEADY) {
                        scheduleJoin(now);
                    }
                }
            }
            return;
        }
        if (lost > 0 && onset < 0) {
            onset = now;
            if (state == State.STEADY) {
                lossEnd = now + detectionNanos();
            }
        }
        if (onset < 0) {
            return;
        }
        npkts++;
        nloss += lost;
        if (!congested(npkts, nloss)) {
            return;
        }
        if (state == State.MEASUREMENT) {
            failedExperiments++;
            // Failed experiments are the only ones whose loss shows how long detection takes.
            double error = onset - joinedAt - detectionMean;
            detectionMean += GAIN * error;
            detectionDeviation += GAIN * (Math.abs(error) - detectionDeviation);
            backOff(level);
            moveTo(level - 1, now);
            enterHysteresis(now);
        } else if (level > 0) {
            steadyDrops++;
            moveTo(level - 1, now);
            enterHysteresis(now);
        } else {
            resetLoss();
        }
    }

    @Override
    public void onTimer(long now) {
        hear(now);
        if (level < 0) {
            return;
        }
        if (state == State.MEASUREMENT && now >= stateEnd) {
            // A detection timer without congestion: the experiment succeeded.
            joinTimer[level] = Math.max(INITIAL_JOIN, joinTimer[level] * 3 / 4);
            enterSteady(now);
        } else if (state == State.HYSTERESIS && now >= stateEnd) {
            enterSteady(now);
        }
        if (state != State.STEADY) {
            return;
        }
        if (now >= lossEnd) {
            resetLoss();
        }
        if (lossEnd == Long.MAX_VALUE && now >= nextJoin) {
            experiment(now);
        }
    }

    private void experiment(long now) {
        long until = learning == null ? now : learning.lowerUntil(level, now);
        if (until > now) {
            deferrals++;
            nextJoin = until;
            return;
        }
        if (learning != null) {
            learning.announce(level + 1, now);
        }
        moveTo(level + 1, now);
        experiments++;
        joinedAt = now;
        state = State.MEASUREMENT;
        stateEnd = now + detectionNanos();
        nextJoin = Long.MAX_VALUE;
        if (watched == level) {
            // Another receiver's experiment on this same layer: its outcome is now this receiver's own.
            watched = -1;
        }
        resetLoss();
    }

    private void backOff(int layer) {
        joinTimer[layer] = Math.min(MAX_JOIN, joinTimer[layer] * 2);
    }

    private void enterSteady(long now) {
        state = State.STEADY;
        stateEnd = Long.MAX_VALUE;
        resetLoss();
        scheduleJoin(now);
        if (learning != null) {
            watch(now);
        }
    }

    private void enterHysteresis(long now) {
        state = State.HYSTERESIS;
        stateEnd = now + detectionNanos();
        nextJoin = Long.MAX_VALUE;
        watched = -1;
        resetLoss();
    }

    private void resetLoss() {
        onset = -1;
        lossEnd = Long.MAX_VALUE;
        npkts = 0;
        nloss = 0;
    }

    private static boolean congested(long received, long lost) {
        return received + lost >= MIN_PACKETS && (double) lost / (received + lost) > LOSS_THRESHOLD;
    }

    private void scheduleJoin(long now) {
        nextJoin = level + 1 >= joinTimer.length ? Long.MAX_VALUE : now + drawJoin(random, joinTimer[level + 1]);
    }

    private void hear(long now) {
        if (learning != null) {
            learning.hear(now, detectionNanos());
            watch(now);
        }
    }

    /**
     * Watches the experiments in progress above this receiver's level, the lowest one's layer taking
     * the blame (congestion during two is the lower one's at least); also those heard during the
     * hysteresis, which still run when it ends.
     */
    private void watch(long now) {
        if (watched >= 0 && now >= watchedEnd) {
            watched = -1;
        }
        int lowest = learning.lowestAbove(level);
        if (level < 0 || state == State.HYSTERESIS || lowest < 0) {
            return;
        }
        if (watched < 0) {
            watchLearnt = false;
            watchedOnset = -1;
            wpkts = 0;
            wloss = 0;
            watched = lowest;
            watchedEnd = learning.endAbove(level);
        } else {
            watched = Math.min(watched, lowest);
            watchedEnd = Math.max(watchedEnd, learning.endAbove(level));
        }
    }

    @Override
    public long nextDeadlineNanos() {
        if (level < 0) {
            return Long.MAX_VALUE;
        }
        long watch = watched >= 0 ? watchedEnd : Long.MAX_VALUE;
        if (state != State.STEADY) {
            return Math.min(stateEnd, watch);
        }
        // A join due while the receiver's own loss is measured waits for the measurement's end, not a wake-up of its own.
        return Math.min(lossEnd != Long.MAX_VALUE ? lossEnd : nextJoin, watch);
    }

    private void moveTo(int to, long now) {
        to = Math.min(to, joinTimer.length - 1);
        while (level < to) {
            level++;
            synced[level] = false;
            subscriber.join(level, now);
        }
        while (level > to) {
            synced[level] = false;
            subscriber.leave(level, now);
            level--;
        }
    }

    @Override
    public int level() {
        return level;
    }

    /** The detection timer: the estimated mean detection time plus {@link #DEVIATIONS} deviations, nanoseconds. */
    long detectionNanos() {
        return Math.round(detectionMean + DEVIATIONS * detectionDeviation);
    }

    double detectionMeanNanos() {
        return detectionMean;
    }

    long joinTimerNanos(int layer) {
        return joinTimer[layer];
    }

    /** When the next join experiment is due, Long.MAX_VALUE when none is scheduled. */
    long nextJoinNanos() {
        return nextJoin;
    }

    Activity activity() {
        return new Activity(experiments, failedExperiments, steadyDrops, deferrals, learnedBackoffs);
    }

    /**
     * What the receiver did so far: its join experiments, those that failed, layers dropped in the
     * steady state, join timers that waited for another receiver's experiment on a lower layer, and
     * back-offs learnt from another receiver's experiment.
     */
    record Activity(long experiments, long failed, long steadyDrops, long deferrals, long learnedBackoffs) {
    }
}
