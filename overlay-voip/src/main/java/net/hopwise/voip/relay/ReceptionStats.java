package net.hopwise.voip.relay;

/**
 * What one direction of a media stream looked like where the relay received it: packets, loss from
 * sequence gaps, duplicates, packets later than the deadline, and RFC 3550 interarrival jitter
 * (section 6.4.1, in nanoseconds). Sequence numbers of any width (16-bit RTP, 32-bit overlay flow)
 * are extended to 64 bits by nearness to the highest seen (RFC 3550 appendix A.1). A window of
 * recent sequence numbers tells duplicates, which {@link #record} reports so that the egress can
 * drop them. Sans-IO: arrival and send times are passed in.
 */
public final class ReceptionStats {
    /** What became of a packet. */
    public enum Verdict { FORWARD, DUPLICATE, LATE }

    /** Sequence numbers remembered for duplicates: 1024 packets is 20 s of 20 ms audio. */
    static final int WINDOW = 1024;

    private final int sequenceBits;
    private long deadlineNanos;
    private final long[] seen = new long[WINDOW / 64];
    private boolean started;
    private long firstSeq;
    private long highestSeq;
    private long received;
    private long duplicates;
    private long late;
    private long recovered;
    private long bytes;
    private double jitterNanos;
    private long lastTransit;
    private boolean haveTransit;
    private long minTransit = Long.MAX_VALUE;
    private double transitSum;
    private long transitCount;
    /** Packets expected of the sources before the current one (see {@link #newSource}). */
    private long expectedBefore;

    /**
     * @param sequenceBits width of the sequence numbers (16 for RTP, 32 for overlay flows)
     * @param deadlineNanos a packet whose transit exceeds the smallest transit seen by more than this is
     *     late ({@code Long.MAX_VALUE}: never); relative to the smallest, so that the two clocks'
     *     offset across machines cancels out
     */
    public ReceptionStats(int sequenceBits, long deadlineNanos) {
        if (sequenceBits < 8 || sequenceBits > 32) {
            throw new IllegalArgumentException("sequence width " + sequenceBits);
        }
        this.sequenceBits = sequenceBits;
        this.deadlineNanos = deadlineNanos;
    }

    /** The deadline from now on (a re-INVITE may change the packet time); {@code Long.MAX_VALUE}: never late. */
    public void deadline(long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException("deadline must be positive, got " + nanos);
        }
        this.deadlineNanos = nanos;
    }

    public long deadlineNanos() {
        return deadlineNanos;
    }

    /**
     * Records a packet.
     *
     * @param sequence its sequence number as carried (low {@code sequenceBits} bits used)
     * @param transitNanos arrival time minus the packet's send time on the sender's clock (any offset)
     */
    public Verdict record(long sequence, long transitNanos, int length) {
        return record(sequence, transitNanos, length, false);
    }

    /**
     * Records a packet, {@code recovered} when an overlay link lost it once and sent it again on the
     * way (counted unless it is a duplicate).
     */
    public Verdict record(long sequence, long transitNanos, int length, boolean recovered) {
        long mask = (1L << sequenceBits) - 1;
        long seq = sequence & mask;
        long ext;
        if (!started) {
            started = true;
            ext = seq;
            firstSeq = seq;
            highestSeq = seq;
        } else {
            long half = 1L << (sequenceBits - 1);
            long cycle = highestSeq & ~mask;
            ext = cycle | seq;
            if (ext - highestSeq > half) {
                ext -= 1L << sequenceBits;
            } else if (highestSeq - ext > half) {
                ext += 1L << sequenceBits;
            }
            if (ext < firstSeq) {
                // Older than the first packet seen: too old to count or to pass on.
                duplicates++;
                return Verdict.DUPLICATE;
            }
        }
        if (highestSeq - ext >= WINDOW) {
            duplicates++;
            return Verdict.DUPLICATE;
        }
        if (ext > highestSeq) {
            for (long s = Math.max(highestSeq + 1, ext - WINDOW + 1); s <= ext; s++) {
                clear(s);
            }
            highestSeq = ext;
        } else if (isSeen(ext)) {
            duplicates++;
            return Verdict.DUPLICATE;
        }
        mark(ext);
        received++;
        if (recovered) {
            this.recovered++;
        }
        bytes += length;
        if (haveTransit) {
            long d = Math.abs(transitNanos - lastTransit);
            jitterNanos += (d - jitterNanos) / 16.0;
        }
        lastTransit = transitNanos;
        haveTransit = true;
        minTransit = Math.min(minTransit, transitNanos);
        transitSum += transitNanos;
        transitCount++;
        if (deadlineNanos != Long.MAX_VALUE && transitNanos - minTransit > deadlineNanos) {
            late++;
            return Verdict.LATE;
        }
        return Verdict.FORWARD;
    }

    /**
     * The sender began a new sequence: an RTP source with a new SSRC numbers its packets from a random
     * start (RFC 3550 section 5.1), so its first packet is no gap after the last one's. What was expected
     * so far is kept; the new sequence counts from its first packet, with an empty window of duplicates.
     */
    public void newSource() {
        if (started) {
            expectedBefore += highestSeq - firstSeq + 1;
            started = false;
            java.util.Arrays.fill(seen, 0);
        }
    }

    private boolean isSeen(long s) {
        int bit = (int) (s & (WINDOW - 1));
        return (seen[bit >>> 6] & (1L << bit)) != 0;
    }

    private void mark(long s) {
        int bit = (int) (s & (WINDOW - 1));
        seen[bit >>> 6] |= 1L << bit;
    }

    private void clear(long s) {
        int bit = (int) (s & (WINDOW - 1));
        seen[bit >>> 6] &= ~(1L << bit);
    }

    /** Distinct packets received (late ones included). */
    public long received() {
        return received;
    }

    /** Packets the sender sent from the first to the highest seen, of each source in turn. */
    public long expected() {
        return expectedBefore + (started ? highestSeq - firstSeq + 1 : 0);
    }

    /** Expected packets that never arrived (never negative). */
    public long lost() {
        return Math.max(0, expected() - received);
    }

    public long duplicates() {
        return duplicates;
    }

    /** Packets received (not duplicates) that an overlay link had recovered on the way. */
    public long recovered() {
        return recovered;
    }

    public long late() {
        return late;
    }

    public long bytes() {
        return bytes;
    }

    public double jitterNanos() {
        return jitterNanos;
    }

    /** Mean transit: a one-way delay when the send times are on the receiver's clock, as the overlay's are. */
    public double meanTransitNanos() {
        return transitCount == 0 ? 0 : transitSum / transitCount;
    }

    /** Lost or late, as a share of expected: what the phone's decoder has to conceal. */
    public double missedRate() {
        long e = expected();
        return e == 0 ? 0 : (double) (lost() + late) / e;
    }
}
