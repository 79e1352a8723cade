package net.hopwise.overlay.reliable;

/**
 * The retransmission timeout of RFC 6298 from RTT samples: srtt + 4 rttvar, clamped between a
 * floor and a ceiling, doubled on every expiry up to the ceiling. Shared by reliable links and
 * end-to-end sessions, each with its own bounds.
 *
 * <p>The margin over srtt may also have a floor proportional to srtt. On a steady path rttvar decays
 * to almost nothing, and the timeout to srtt plus the granularity term; a pause of the host or the
 * JVM just longer than that term then times out every packet in flight. A margin of a fraction of
 * the round trip tolerates pauses in proportion to the path, as RACK's reordering window does.
 *
 * <p>Only a sample ends the backoff, as Karn's algorithm has it: an acknowledgement of a packet sent
 * more than once gives no sample. Resetting on any acknowledgement deadlocks when the round trip
 * grows past the timeout at once (a path that became longer, or an estimate taken before a delay
 * appeared): every packet times out before its acknowledgement comes, is resent, gives no sample,
 * and the next acknowledgement resets the timeout to the same too-short value. After two expiries
 * in a row the estimate is taken as bogus (RFC 6298 section 5 allows this): the next sample
 * replaces it instead of moving it by an eighth.
 */
public final class RetransmissionTimer {
    /**
     * RFC 6298's clock granularity term G: below it a variation cannot be told from noise. An event
     * loop's timers and its thread's scheduling on a busy host are this coarse: with 1 ms, the paper's
     * chain on two shared cores resent about 8 packets a second on loss-free links; with 2 ms, 3.
     */
    private static final long GRANULARITY_NANOS = 2_000_000;

    private final long minNanos;
    private final long maxNanos;
    private final long initialNanos;
    /** Least margin over srtt, in 1/1024ths of srtt: integer arithmetic on every timeout read. */
    private final long marginPer1024;
    private boolean sampled;
    private long srtt;
    private long rttVar;
    private int backoff = 1;
    private int expiriesSinceSample;

    public RetransmissionTimer(long initialNanos, long minNanos, long maxNanos) {
        this(initialNanos, minNanos, maxNanos, 0);
    }

    /**
     * @param minMargin least margin of the timeout over srtt, as a fraction of srtt (0 to 4): the
     *     timeout is srtt + max(G, 4 rttvar, minMargin x srtt) within its bounds
     */
    public RetransmissionTimer(long initialNanos, long minNanos, long maxNanos, double minMargin) {
        if (minNanos <= 0 || maxNanos < minNanos || initialNanos <= 0) {
            throw new IllegalArgumentException("need 0 < min <= max and initial > 0");
        }
        if (!(minMargin >= 0 && minMargin <= 4)) {
            throw new IllegalArgumentException("minMargin must be 0-4, got " + minMargin);
        }
        this.initialNanos = initialNanos;
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
        this.marginPer1024 = Math.round(minMargin * 1024);
    }

    /**
     * A round-trip sample in nanoseconds (RFC 6298 section 2.2 and 2.3), from a packet sent once; it
     * ends any backoff. Negative: no sample (the acknowledged packet was sent more than once).
     */
    public void onSample(long rtt) {
        if (rtt < 0) {
            return;
        }
        backoff = 1;
        expiriesSinceSample = 0;
        if (!sampled) {
            sampled = true;
            srtt = rtt;
            rttVar = rtt / 2;
        } else {
            rttVar += (Math.abs(srtt - rtt) - rttVar) / 4;
            srtt += (rtt - srtt) / 8;
        }
    }

    /** Uses another estimate (the hello protocol's) until this timer has samples of its own. */
    public void seed(long rtt) {
        if (!sampled && rtt > 0) {
            srtt = rtt;
            rttVar = rtt / 2;
        }
    }

    /** Doubles the timeout after an expiry, as RFC 6298 section 5.5 does, until the ceiling. */
    public void backOff() {
        if (timeoutNanos() < maxNanos) {
            backoff = Math.min(backoff * 2, 1 << 20);
        }
        if (++expiriesSinceSample >= 2) {
            sampled = false; // the timeout stays from srtt until the next sample replaces it
        }
    }

    /** The factor the timeout is multiplied by after expiries without a sample since (1 = none). */
    public int backoff() {
        return backoff;
    }

    /** The current timeout, backoff included. */
    public long timeoutNanos() {
        long base;
        if (srtt == 0 && !sampled) {
            base = initialNanos;
        } else {
            long margin = Math.max(GRANULARITY_NANOS, 4 * rttVar);
            base = srtt + Math.max(margin, srtt * marginPer1024 / 1024);
        }
        base = Math.max(minNanos, Math.min(maxNanos, base));
        long scaled = base * backoff;
        return scaled < 0 || scaled > maxNanos ? Math.max(base, maxNanos) : scaled;
    }

    /** Smoothed RTT, 0 before any sample or seed. */
    public long srttNanos() {
        return srtt;
    }
}
