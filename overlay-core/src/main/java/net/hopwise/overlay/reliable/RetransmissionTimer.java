package net.hopwise.overlay.reliable;

/**
 * The retransmission timeout of RFC 6298 from RTT samples: srtt + 4 rttvar, clamped between a
 * floor and a ceiling, doubled on every expiry up to the ceiling. Shared by reliable links and
 * end-to-end sessions, each with its own bounds.
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
    private boolean sampled;
    private long srtt;
    private long rttVar;
    private int backoff = 1;
    private int expiriesSinceSample;

    public RetransmissionTimer(long initialNanos, long minNanos, long maxNanos) {
        if (minNanos <= 0 || maxNanos < minNanos || initialNanos <= 0) {
            throw new IllegalArgumentException("need 0 < min <= max and initial > 0");
        }
        this.initialNanos = initialNanos;
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
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
            base = srtt + Math.max(GRANULARITY_NANOS, 4 * rttVar);
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
