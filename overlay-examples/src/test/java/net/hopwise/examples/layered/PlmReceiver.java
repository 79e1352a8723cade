package net.hopwise.examples.layered;

import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;

/**
 * PLM (Legout and Biersack 2000) as the ns-2 code behaves (the digest's section 2.4): packet-pair
 * samples, each one below the subscribed rate dropping at once to the highest level below it; the
 * minimum over at least one check period and at least 3 samples, taken at the first pair after the
 * period, setting the level strictly below it; a loss-based drop of one layer when no estimate is
 * possible and over 10% of at least 10 packets were lost, then a 0.5 s blind period; a timeout
 * without packets dropping one layer; after the base layer too is dropped, a re-join of the base
 * layer 30 s later (else a receiver that lost everything once, behind a path that recovered, would
 * stay out for good). No TCP equation: PLM relies on fair queuing for fairness.
 */
final class PlmReceiver implements LayeredController {
    static final long CHECK_PERIOD = 1_000_000_000L;
    static final int MIN_SAMPLES = 3;
    static final double LOSS_THRESHOLD = 0.10;
    static final int LOSS_MIN_PACKETS = 10;
    static final long BLIND = 500_000_000L;
    static final long TIMEOUT = 2_000_000_000L;
    static final long REJOIN = 30_000_000_000L;

    private final int sessionId;
    private final LayerSubscriber subscriber;
    private SessionAnnouncement announcement;
    private boolean wanted;
    private int level = -1;
    private long periodStart;
    private double minSample = Double.POSITIVE_INFINITY;
    private int samples;
    private long lastPacket;
    private long blindUntil;
    private long npkts;
    private long nloss;
    private long[] expected;
    private boolean[] synced;
    private int pairLayer = -1;
    private long pairNext;
    private long pairFirst;
    /** When a receiver that dropped every layer joins the base layer again; MAX_VALUE when it holds one. */
    private long rejoinAt = Long.MAX_VALUE;

    PlmReceiver(int sessionId, LayerSubscriber subscriber) {
        this.sessionId = sessionId;
        this.subscriber = subscriber;
    }

    @Override
    public void join(long nowNanos) {
        wanted = true;
        if (announcement != null && level < 0) {
            start(nowNanos);
        }
    }

    @Override
    public void onAnnouncement(SessionAnnouncement a, long nowNanos) {
        if (a.sessionId() != sessionId || announcement != null) {
            return;
        }
        announcement = a;
        expected = new long[a.layers().count()];
        synced = new boolean[a.layers().count()];
        if (wanted) {
            start(nowNanos);
        }
    }

    private void start(long now) {
        rejoinAt = Long.MAX_VALUE;
        reset(now);
        blindUntil = now;
        periodStart = now;
        lastPacket = now;
        moveTo(0, now);
    }

    @Override
    public void onPacket(LayeredPacket p, long now) {
        if (announcement == null || p.layer() > level) {
            return;
        }
        lastPacket = now;
        countLoss(p);
        double sample = pair(p, now);
        if (!Double.isNaN(sample)) {
            samples++;
            minSample = Math.min(minSample, sample);
            if (announcement.layers().cumulative(level) > sample) {
                moveTo(announcement.layers().levelFor(sample, true), now);
                reset(now);
                return;
            }
            if (now - periodStart >= CHECK_PERIOD && samples >= MIN_SAMPLES) {
                moveTo(announcement.layers().levelFor(minSample, true), now);
                reset(now);
                return;
            }
        }
        if (samples < MIN_SAMPLES && now - periodStart >= CHECK_PERIOD && now >= blindUntil
                && npkts + nloss >= LOSS_MIN_PACKETS && (double) nloss / (npkts + nloss) > LOSS_THRESHOLD) {
            moveTo(level - 1, now);
            blindUntil = now + BLIND;
            reset(now);
        }
    }

    private void reset(long now) {
        samples = 0;
        minSample = Double.POSITIVE_INFINITY;
        periodStart = now;
        npkts = 0;
        nloss = 0;
    }

    private void countLoss(LayeredPacket p) {
        int j = p.layer();
        npkts++;
        if (synced[j]) {
            long gap = (p.sequence() - expected[j]) & 0xFFFF_FFFFL;
            if (gap < 0x8000_0000L) {
                nloss += gap;
            } else {
                return;
            }
        }
        synced[j] = true;
        expected[j] = (p.sequence() + 1) & 0xFFFF_FFFFL;
    }

    private double pair(LayeredPacket p, long now) {
        if (p.firstOfBunch()) {
            pairLayer = p.layer();
            pairNext = (p.sequence() + 1) & 0xFFFF_FFFFL;
            pairFirst = now;
            return Double.NaN;
        }
        boolean ok = pairLayer == p.layer() && p.sequence() == pairNext;
        pairLayer = -1;
        if (!ok) {
            return Double.NaN;
        }
        long gap = now - pairFirst;
        return gap <= 0 ? Double.POSITIVE_INFINITY : 8.0 * announcement.packetBytes() * 1e9 / gap;
    }

    @Override
    public void onTimer(long now) {
        if (level >= 0 && now >= lastPacket + TIMEOUT) {
            lastPacket = now;
            moveTo(level - 1, now);
        } else if (level < 0 && now >= rejoinAt) {
            start(now);
        }
    }

    @Override
    public long nextDeadlineNanos() {
        return level >= 0 ? lastPacket + TIMEOUT : rejoinAt;
    }

    private void moveTo(int to, long now) {
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
        if (level < 0 && wanted) {
            rejoinAt = now + REJOIN;
        }
    }

    @Override
    public int level() {
        return level;
    }
}
