package net.hopwise.multicast;

import java.util.Arrays;

/**
 * The receiving end of a link channel: which sequences arrived (a window of {@link #WINDOW} past the
 * first missing one), so that each packet goes up once however often it is resent, and what to
 * acknowledge at the end of the batch. Packets go up as they arrive, out of order (the thesis's relays
 * forward at once and only the destination orders). Sans-IO.
 */
final class ChannelReceiver {
    /** As far past the first missing sequence as the sender's window may reach; see {@link LinkChannel#SPAN}. */
    static final int WINDOW = LinkChannel.SPAN;

    private final boolean[] seen = new boolean[WINDOW];
    private final int maxAcks;
    private boolean started;
    private int epoch;
    /** The first sequence not yet arrived: every one before it did. */
    private long base;
    private int[] pending = new int[16];
    private int pendingCount;
    private boolean ackDue;

    ChannelReceiver(int maxAcks) {
        this.maxAcks = maxAcks;
    }

    enum Verdict { NEW, DUPLICATE, OUT_OF_WINDOW }

    Verdict accept(int packetEpoch, int sequence) {
        if (!started || packetEpoch != epoch) {
            // A new sender (restarted, or its channel made anew) counts from 0 again.
            started = true;
            epoch = packetEpoch;
            base = 0;
            Arrays.fill(seen, false);
            pendingCount = 0;
        }
        long seq = base + (sequence - (int) base);
        if (seq < base) {
            ackDue = true;
            return Verdict.DUPLICATE;
        }
        if (seq >= base + WINDOW) {
            return Verdict.OUT_OF_WINDOW;
        }
        int slot = (int) (seq % WINDOW);
        ackDue = true;
        if (seen[slot]) {
            // Acknowledged again: the sender resent it because it did not hear the first time.
            remember(sequence);
            return Verdict.DUPLICATE;
        }
        seen[slot] = true;
        while (seen[(int) (base % WINDOW)]) {
            seen[(int) (base % WINDOW)] = false;
            base++;
        }
        if (seq >= base) {
            remember(sequence);
        }
        return Verdict.NEW;
    }

    private void remember(int sequence) {
        if (pendingCount < maxAcks) {
            if (pendingCount == pending.length) {
                pending = Arrays.copyOf(pending, Math.min(maxAcks, pending.length * 2));
            }
            pending[pendingCount++] = sequence;
        }
    }

    /**
     * The acknowledgement just taken did not leave (the node's socket was back-pressured): one is owed
     * again, carrying the cumulative point, which covers what the lost one would have said of it.
     */
    void owe() {
        ackDue = true;
    }

    /** The acknowledgement owed since the last, or null when nothing arrived. */
    ChannelAck takeAck() {
        if (!ackDue) {
            return null;
        }
        ackDue = false;
        int kept = 0;
        for (int i = 0; i < pendingCount; i++) {
            long s = base + (pending[i] - (int) base);
            if (s >= base) {
                pending[kept++] = pending[i];
            }
        }
        ChannelAck ack = new ChannelAck(epoch, (int) base, Arrays.copyOf(pending, kept));
        pendingCount = 0;
        return ack;
    }
}
