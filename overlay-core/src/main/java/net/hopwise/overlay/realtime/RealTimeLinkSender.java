package net.hopwise.overlay.realtime;

/**
 * The sending end of one link's real-time channel: numbers packets, keeps a history of them bounded
 * by time and capacity, and answers negative acknowledgements from that history within a token
 * budget.
 *
 * <p>Packets are opaque ({@code P}): the engine stores datagrams, tests store whatever they like.
 * The sender owns a packet from {@link #sent} until it hands it back through
 * {@link Output#evicted}.
 *
 * @param <P> what a stored packet is
 */
public final class RealTimeLinkSender<P> {
    /** Where the sender's decisions go. */
    public interface Output<P> {
        /** Resend this packet, which carries sequence number {@code seq}; the sender keeps it. */
        void retransmit(long seq, P packet);

        /**
         * As {@link #retransmit(long, Object)}, told how long the packet has been held since it was
         * first sent: for packets that carry the time they have left, which the resend must shorten.
         */
        default void retransmit(long seq, P packet, long heldNanos) {
            retransmit(seq, packet);
        }

        /** The packet left the history (expired, displaced or closed); release it. */
        void evicted(P packet);
    }

    private final Output<P> output;
    private final long historyNanos;
    private final int capacity;
    private final double share;
    private final double bucketCapacity;
    private final boolean keepHistory;

    private final Object[] packets;
    private final long[] sentAt;
    /** Past this instant a packet is not resent: the end of the history, or its own earlier deadline. */
    private final long[] resendUntil;
    private final boolean[] resent;
    /** Oldest sequence number that may still be in the history; {@code next} when empty. */
    private long oldest;
    private long next;
    private double tokens;

    private long dataPackets;
    private long nacksReceived;
    private long retransmissions;
    private long refusedExpired;
    private long refusedTokens;

    public RealTimeLinkSender(RealTimeConfig config, Output<P> output) {
        this.output = output;
        this.historyNanos = config.history().toNanos();
        this.capacity = config.historyCapacity();
        this.share = config.retransmissionShare();
        this.bucketCapacity = config.tokenBucketCapacity();
        this.keepHistory = config.recovery();
        this.packets = new Object[capacity];
        this.sentAt = new long[capacity];
        this.resendUntil = new long[capacity];
        this.resent = new boolean[capacity];
        // A new link starts with a full bucket: its first losses are as worth repairing as later ones.
        this.tokens = bucketCapacity;
    }

    /** The sequence number the next {@link #sent} packet gets; write it into the packet first. */
    public long nextSequence() {
        return next;
    }

    /**
     * Records a data packet just sent with {@link #nextSequence()} and earns retransmission tokens.
     * The sender takes ownership of {@code packet}.
     */
    public void sent(P packet, long nowNanos) {
        sent(packet, nowNanos, Long.MAX_VALUE);
    }

    /**
     * As {@link #sent(Object, long)} for a packet with a deadline of its own: it is resent only before
     * {@code resendUntilNanos} (and never after the history's end), because a later copy could not
     * arrive in time. It still takes its place in the history, so that numbering and eviction stay
     * in order.
     */
    public void sent(P packet, long nowNanos, long resendUntilNanos) {
        expire(nowNanos);
        long seq = next++;
        dataPackets++;
        tokens = Math.min(bucketCapacity, tokens + share);
        if (!keepHistory) {
            output.evicted(packet);
            oldest = next;
            return;
        }
        int i = slot(seq);
        if (seq - oldest >= capacity) {
            // The ring is full: the oldest entry is displaced by this one.
            evict(oldest);
            oldest++;
        }
        packets[i] = packet;
        sentAt[i] = nowNanos;
        resendUntil[i] = Math.min(resendUntilNanos, nowNanos + historyNanos);
        resent[i] = false;
    }

    /**
     * Answers a negative acknowledgement: resends each listed packet still in the history, once, while
     * tokens last.
     *
     * @param sequences the requested numbers; only their low 32 bits count, as on the wire
     */
    public void onNack(long[] sequences, int count, long nowNanos) {
        expire(nowNanos);
        nacksReceived++;
        for (int k = 0; k < count; k++) {
            long seq = below(sequences[k]);
            if (seq < oldest || seq >= next) {
                refusedExpired++;
                continue;
            }
            int i = slot(seq);
            if (nowNanos >= resendUntil[i]) {
                refusedExpired++;
                continue;
            }
            if (resent[i]) {
                // A duplicated NACK: each packet is resent at most once.
                continue;
            }
            if (tokens < 1) {
                refusedTokens++;
                continue;
            }
            tokens -= 1;
            resent[i] = true;
            retransmissions++;
            @SuppressWarnings("unchecked")
            P p = (P) packets[i];
            output.retransmit(seq, p, nowNanos - sentAt[i]);
        }
    }

    /** Drops expired packets from the history. */
    public void onTimer(long nowNanos) {
        expire(nowNanos);
    }

    /**
     * When {@link #onTimer} must next run to free the history: a history after the oldest packet
     * expires, or {@link Long#MAX_VALUE} when it is empty. Every send and every NACK drops what has
     * expired first, so while a flow sends the history stays within its span without a timer; the
     * timer only frees what a flow that stopped left behind. Asking for it at each packet's own expiry
     * woke an otherwise idle node once per packet sent (a relay carrying ten calls, 500 packets a second
     * to the other site, waited 1500 times a second for 1000 packets).
     */
    public long nextDeadlineNanos() {
        return oldest == next ? Long.MAX_VALUE : sentAt[slot(oldest)] + 2 * historyNanos;
    }

    /** Hands back every packet still held. */
    public void close() {
        while (oldest < next) {
            evict(oldest);
            oldest++;
        }
    }

    private void expire(long nowNanos) {
        while (oldest < next && nowNanos - sentAt[slot(oldest)] >= historyNanos) {
            evict(oldest);
            oldest++;
        }
    }

    private void evict(long seq) {
        int i = slot(seq);
        @SuppressWarnings("unchecked")
        P p = (P) packets[i];
        packets[i] = null;
        if (p != null) {
            output.evicted(p);
        }
    }

    /** The number with these low 32 bits nearest below {@link #next}. */
    private long below(long wire) {
        long candidate = (next & ~0xFFFF_FFFFL) | (wire & 0xFFFF_FFFFL);
        return candidate >= next ? candidate - 0x1_0000_0000L : candidate;
    }

    private int slot(long seq) {
        return (int) Long.remainderUnsigned(seq, capacity);
    }

    /** Packets held now. */
    public int historySize() {
        return (int) (next - oldest);
    }

    public double tokens() {
        return tokens;
    }

    public long dataPackets() {
        return dataPackets;
    }

    public long nacksReceived() {
        return nacksReceived;
    }

    public long retransmissions() {
        return retransmissions;
    }

    /** Requested packets that were no longer (or never) in the history. */
    public long refusedExpired() {
        return refusedExpired;
    }

    /** Requested packets not resent because the token bucket was empty. */
    public long refusedTokens() {
        return refusedTokens;
    }
}
