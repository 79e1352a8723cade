package net.hopwise.examples.layered;

import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;

/**
 * FLID-DL's receiver (the thesis's pseudocode, section 4.4.3, over {@link FlidDl}'s dynamic
 * layering), one decision per time slot, taken when the first packet of the next slot arrives:
 * a loss in the slot lowers the level by one (EXIT when it was the base layer, rejoining after
 * {@link #REJOIN}); otherwise an increase signal that covers the level raises it by one; otherwise
 * it holds. The level is kept, raised or lowered only by which groups carry the new slot's layers:
 * the groups of the level's layers are joined, the group gone silent is left. So a receiver stays
 * at least one slot on a level even when it is too high, and changes at most one level a slot.
 */
final class FlidDlReceiver implements LayeredController {
    static final long REJOIN = 30_000_000_000L;

    private final int sessionId;
    private final FlidDl p;
    private final LayerSubscriber subscriber;
    private final boolean[] held;
    private final long[] expected;
    private final boolean[] synced;
    private boolean wanted;
    private int level = -1;
    private long slot = -1;
    private boolean lossInSlot;
    private int signalInSlot = -1;
    private long rejoinAt = Long.MAX_VALUE;

    FlidDlReceiver(int sessionId, FlidDl params, LayerSubscriber subscriber) {
        this.sessionId = sessionId;
        this.p = params;
        this.subscriber = subscriber;
        this.held = new boolean[params.groups()];
        this.expected = new long[params.groups()];
        this.synced = new boolean[params.groups()];
    }

    @Override
    public void join(long now) {
        wanted = true;
        if (level < 0) {
            level = 0;
            slot = -1;
            hold(0, now);
        }
    }

    @Override
    public void onAnnouncement(SessionAnnouncement announcement, long now) {
        // FLID-DL's parameters are known beforehand; the slot comes in every packet.
    }

    @Override
    public void onPacket(LayeredPacket packet, long now) {
        int g = packet.layer();
        if (packet.sessionId() != sessionId || g >= held.length || !held[g]) {
            return;
        }
        if (packet.epoch() > slot) {
            if (slot >= 0) {
                decide(packet.epoch(), now);
                if (level < 0) {
                    return;
                }
            }
            slot = packet.epoch();
            lossInSlot = false;
            signalInSlot = -1;
        }
        if (synced[g]) {
            long gap = (packet.sequence() - expected[g]) & 0xFFFF_FFFFL;
            if (gap >= 0x8000_0000L) {
                return;
            }
            lossInSlot |= gap > 0;
        }
        synced[g] = true;
        expected[g] = (packet.sequence() + 1) & 0xFFFF_FFFFL;
        signalInSlot = Math.max(signalInSlot, (int) packet.objectId() - 1);
    }

    /** The end of {@code slot}, seen at the first packet of {@code next}: lower, raise or hold. */
    private void decide(long next, long now) {
        int to;
        if (lossInSlot) {
            to = level - 1;
        } else if (signalInSlot >= level && next == slot + 1) {
            to = Math.min(level + 1, p.layers() - 1);
        } else {
            to = level;
        }
        if (to < 0) {
            for (int g = 0; g < held.length; g++) {
                if (held[g]) {
                    release(g, now);
                }
            }
            level = -1;
            rejoinAt = wanted ? now + REJOIN : Long.MAX_VALUE;
            return;
        }
        level = to;
        boolean[] want = new boolean[held.length];
        for (int l = 0; l <= level; l++) {
            want[p.groupOf(l, next)] = true;
        }
        for (int g = 0; g < held.length; g++) {
            if (held[g] && !want[g]) {
                release(g, now);
            }
        }
        for (int g = 0; g < held.length; g++) {
            if (want[g] && !held[g]) {
                hold(g, now);
            }
        }
    }

    private void hold(int group, long now) {
        held[group] = true;
        synced[group] = false;
        subscriber.join(group, now);
    }

    private void release(int group, long now) {
        held[group] = false;
        synced[group] = false;
        subscriber.leave(group, now);
    }

    @Override
    public void onTimer(long now) {
        if (now >= rejoinAt) {
            rejoinAt = Long.MAX_VALUE;
            join(now);
        }
    }

    @Override
    public long nextDeadlineNanos() {
        return rejoinAt;
    }

    @Override
    public int level() {
        return level;
    }

    @Override
    public boolean counts(LayeredPacket packet) {
        return packet.layer() < held.length && held[packet.layer()];
    }
}
