package net.hopwise.overlay.reliable;

/**
 * The retransmission timeout of RFC 6298 from RTT samples: srtt + 4 rttvar, clamped between a
 * floor and a ceiling, doubled on every expiry up to the ceiling and reset by the next sample or
 * acknowledgement. Shared by reliable links and end-to-end sessions, each with its own bounds.
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

    public RetransmissionTimer(long initialNanos, long minNanos, long maxNanos) {
        if (minNanos <= 0 || maxNanos < minNanos || initialNanos <= 0) {
            throw new IllegalArgumentException("need 0 < min <= max and initial > 0");
        }
        this.initialNanos = initialNanos;
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
    }

    /** A round-trip sample in nanoseconds (RFC 6298 section 2.2 and 2.3). */
    public void onSample(long rtt) {
        if (rtt < 0) {
            return;
        }
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

    public void resetBackoff() {
        backoff = 1;
    }

    /** Doubles the timeout after an expiry, as RFC 6298 section 5.5 does, until the ceiling. */
    public void backOff() {
        if (timeoutNanos() < maxNanos) {
            backoff = Math.min(backoff * 2, 1 << 20);
        }
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
