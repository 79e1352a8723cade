package net.hopwise.examples.layered;

import java.util.SplittableRandom;
import net.hopwise.multicast.layered.LayeredOutput;
import net.hopwise.multicast.layered.LayeredPacket;

/**
 * FLID-DL's source: every group at the rate of the layer it carries in the current slot (see {@link
 * FlidDl}), packets evenly spaced; each slot one increase signal, drawn at random, carried in every
 * packet of the slot. The header is ERA's: the group in LID, a per-group PSN, the slot number in
 * the epoch field and the signal plus one in OID (0: no level may rise).
 */
final class FlidDlSender implements LayeredSession.Source {
    private final FlidDl p;
    private final LayeredOutput out;
    private final SplittableRandom random;
    private final long start;
    private final int sessionId;
    private final long[] nextSend;
    private final long[] sequence;
    private final long packetBits;
    private long slot = -1;
    private long nextSlot;
    private int signal;

    FlidDlSender(int sessionId, FlidDl params, long startNanos, LayeredOutput out, long seed) {
        this.p = params;
        this.out = out;
        this.random = new SplittableRandom(seed);
        this.start = startNanos;
        this.sessionId = sessionId;
        this.nextSend = new long[params.groups()];
        java.util.Arrays.fill(nextSend, Long.MAX_VALUE);
        this.sequence = new long[params.groups()];
        this.packetBits = 8L * params.packetBytes();
        this.nextSlot = startNanos;
    }

    @Override
    public void onTimer(long now) {
        while (now >= nextSlot) {
            newSlot(nextSlot);
        }
        for (int g = 0; g < nextSend.length; g++) {
            while (nextSend[g] <= now) {
                send(g, now);
                nextSend[g] += spacing(g);
            }
        }
    }

    /**
     * A new slot changes every group's rate: each group's next packet comes one new spacing after
     * a random phase, so that groups do not send in step with each other or with the slot.
     */
    private void newSlot(long at) {
        slot++;
        nextSlot = start + (slot + 1) * p.slotNanos();
        signal = p.signal(random.nextDouble());
        for (int g = 0; g < nextSend.length; g++) {
            long spacing = spacing(g);
            nextSend[g] = spacing == Long.MAX_VALUE ? Long.MAX_VALUE : at + (long) (random.nextDouble() * spacing);
        }
    }

    private long spacing(int group) {
        long rate = p.groupRate(group, slot);
        return rate == 0 ? Long.MAX_VALUE : packetBits * 1_000_000_000L / rate;
    }

    private void send(int group, long now) {
        long seq = sequence[group];
        sequence[group] = (seq + 1) & 0xFFFF_FFFFL;
        out.data(new LayeredPacket(sessionId, signal + 1, group, seq, (now - start) / 1000, false, 2, slot), now);
    }

    /** The slot in progress, -1 before the first. */
    long slot() {
        return slot;
    }

    @Override
    public long nextDeadlineNanos() {
        long next = nextSlot;
        for (long t : nextSend) {
            next = Math.min(next, t);
        }
        return next;
    }
}
