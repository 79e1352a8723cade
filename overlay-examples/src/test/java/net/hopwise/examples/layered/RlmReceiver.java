package net.hopwise.examples.layered;

import java.util.SplittableRandom;
import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;

/**
 * RLM (McCanne, Jacobson and Vetterli 1996) with the ns-2 reference parameters the digest lists
 * (section 2.1): join experiments on a per-layer join timer drawn as {@code T_J/2 + U(0, T_J)}
 * starting at 5 s, backed off x2 (to at most 60 s) when an experiment fails and relaxed x0.75 (to
 * at least 5 s) when one succeeds; an experiment lasts one detection time and fails when more than
 * 25% of at least 10 packets are lost; in the steady state the same loss over a detection time
 * drops one layer. Simplified: a fixed detection time of 2 s instead of ns-2's estimated one, and
 * no shared learning between receivers.
 */
final class RlmReceiver implements LayeredController {
    static final long INITIAL_JOIN = 5_000_000_000L;
    static final long MAX_JOIN = 60_000_000_000L;
    static final long DETECTION = 2_000_000_000L;
    static final double LOSS_THRESHOLD = 0.25;

    private final int sessionId;
    private final LayerSubscriber subscriber;
    private final SplittableRandom random;
    private SessionAnnouncement announcement;
    private boolean wanted;
    private int level = -1;
    private long[] joinTimer;
    private long nextJoin = Long.MAX_VALUE;
    private long windowEnd = Long.MAX_VALUE;
    private boolean experimenting;
    private long npkts;
    private long nloss;
    private long[] expected;
    private boolean[] synced;

    RlmReceiver(int sessionId, LayerSubscriber subscriber, long seed) {
        this.sessionId = sessionId;
        this.subscriber = subscriber;
        this.random = new SplittableRandom(seed);
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
        java.util.Arrays.fill(joinTimer, INITIAL_JOIN);
        expected = new long[n];
        synced = new boolean[n];
        if (wanted) {
            start(now);
        }
    }

    private void start(long now) {
        moveTo(0, now);
        windowEnd = now + DETECTION;
        scheduleJoin(now);
    }

    private void scheduleJoin(long now) {
        if (level + 1 >= joinTimer.length) {
            nextJoin = Long.MAX_VALUE;
            return;
        }
        long t = joinTimer[level + 1];
        nextJoin = now + t / 2 + random.nextLong(t);
    }

    @Override
    public void onPacket(LayeredPacket p, long now) {
        if (announcement == null || p.layer() > level) {
            return;
        }
        int j = p.layer();
        npkts++;
        if (synced[j]) {
            long gap = (p.sequence() - expected[j]) & 0xFFFF_FFFFL;
            if (gap >= 0x8000_0000L) {
                return;
            }
            nloss += gap;
        }
        synced[j] = true;
        expected[j] = (p.sequence() + 1) & 0xFFFF_FFFFL;
    }

    @Override
    public void onTimer(long now) {
        if (level < 0) {
            return;
        }
        if (now >= windowEnd) {
            boolean congested = npkts + nloss >= 10 && (double) nloss / (npkts + nloss) > LOSS_THRESHOLD;
            npkts = 0;
            nloss = 0;
            windowEnd = now + DETECTION;
            if (experimenting) {
                experimenting = false;
                if (congested) {
                    joinTimer[level] = Math.min(MAX_JOIN, joinTimer[level] * 2);
                    moveTo(level - 1, now);
                } else {
                    joinTimer[level] = Math.max(INITIAL_JOIN, joinTimer[level] * 3 / 4);
                }
                scheduleJoin(now);
            } else if (congested && level > 0) {
                moveTo(level - 1, now);
                scheduleJoin(now);
            }
        }
        if (!experimenting && now >= nextJoin) {
            moveTo(level + 1, now);
            experimenting = true;
            npkts = 0;
            nloss = 0;
            windowEnd = now + DETECTION;
            nextJoin = Long.MAX_VALUE;
        }
    }

    @Override
    public long nextDeadlineNanos() {
        return level < 0 ? Long.MAX_VALUE : Math.min(windowEnd, experimenting ? Long.MAX_VALUE : nextJoin);
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
}
