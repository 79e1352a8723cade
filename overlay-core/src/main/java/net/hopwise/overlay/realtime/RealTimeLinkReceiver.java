package net.hopwise.overlay.realtime;

/**
 * The receiving end of one link's real-time channel: passes every new packet on at once, asks once
 * for the packets a gap reveals, and suppresses duplicates.
 *
 * <p>A negative acknowledgement goes out on the first packet that arrives out of order, not after
 * several as in TCP, because reordering on one link is rare and every millisecond counts. A missing
 * number is listed in exactly one acknowledgement; if that is lost, or the retransmission is, the
 * packet stays lost. Nothing here waits or times out.
 */
public final class RealTimeLinkReceiver {
    /** Most numbers one negative acknowledgement lists: what fits in one datagram. */
    public static final int MAX_NACK_SEQUENCES = RealTimeCodec.MAX_NACK_SEQUENCES;

    /** Where requests for missing packets go. */
    public interface Output {
        /** Send one negative acknowledgement for {@code count} numbers of {@code sequences}. */
        void sendNack(long[] sequences, int count);
    }

    private final Output output;
    private final boolean recovery;
    private final SequenceWindow window;
    private final long[] nack;

    private long packets;
    private long recovered;
    private long duplicates;
    private long nacksSent;
    private long sequencesRequested;
    private long restarts;
    private boolean lastFilled;

    public RealTimeLinkReceiver(RealTimeConfig config, Output output) {
        this.output = output;
        this.recovery = config.recovery();
        this.window = new SequenceWindow(config.duplicateWindow());
        this.nack = new long[Math.min(MAX_NACK_SEQUENCES, config.duplicateWindow())];
    }

    /**
     * Takes the link sequence number of an arriving packet.
     *
     * @param wireSequence the 32-bit number the packet carries
     * @return true when the packet is new and must be passed on, false for a duplicate
     */
    public boolean onPacket(long wireSequence) {
        long seq = window.unwrap(wireSequence);
        long r = window.accept(seq);
        lastFilled = r == SequenceWindow.FILLED;
        if (r == SequenceWindow.DUPLICATE) {
            duplicates++;
            return false;
        }
        packets++;
        if (r == SequenceWindow.FILLED) {
            // A retransmission, or an original overtaken by its successor: either way the first copy.
            recovered++;
            return true;
        }
        if (r == SequenceWindow.STALE) {
            // Far behind everything seen: the sender started over (a restarted neighbour).
            restarts++;
            window.reset();
            window.accept(seq);
            return true;
        }
        if (r > 0 && recovery && r < nack.length * 4L) {
            // Ask for the newest of the missing numbers that fit; older ones of a long outage are
            // most likely out of the sender's history already.
            int count = (int) Math.min(r, nack.length);
            for (int k = 0; k < count; k++) {
                nack[k] = seq - count + k;
            }
            nacksSent++;
            sequencesRequested += count;
            output.sendNack(nack, count);
        }
        return true;
    }

    /**
     * Whether the packet {@link #onPacket} last passed on filled a gap: a retransmission (or an
     * original overtaken by its successor), which a receiver may count as recovered.
     */
    public boolean lastFilledGap() {
        return lastFilled;
    }

    /** Forgets the stream, as when the link went down and the neighbour may have restarted. */
    public void reset() {
        window.reset();
    }

    /** New packets passed on. */
    public long packets() {
        return packets;
    }

    /** Packets that filled a gap (recovered by retransmission, or reordered). */
    public long recovered() {
        return recovered;
    }

    public long duplicates() {
        return duplicates;
    }

    public long nacksSent() {
        return nacksSent;
    }

    public long sequencesRequested() {
        return sequencesRequested;
    }

    public long restarts() {
        return restarts;
    }
}
