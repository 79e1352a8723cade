package net.hopwise.overlay.link;

/**
 * Smoothed round-trip time and its variation as RFC 6298 computes them (alpha 1/8, beta 1/4), plus
 * the minimum. RFC 6298's gains rather than Spines' 0.95/0.05 average: they follow a changed path
 * faster and come with a variation that later protocols (retransmission timers) can use.
 */
final class RttEstimator {
    private boolean sampled;
    private long srtt;
    private long rttVar;
    private long min;
    private long last;
    private long samples;

    /** A non-negative RTT sample in nanoseconds. */
    void onSample(long rtt) {
        last = rtt;
        samples++;
        if (!sampled) {
            sampled = true;
            srtt = rtt;
            rttVar = rtt / 2;
            min = rtt;
            return;
        }
        // Variation first, against the old srtt, as RFC 6298 section 2.3 orders it.
        rttVar += (Math.abs(srtt - rtt) - rttVar) / 4;
        srtt += (rtt - srtt) / 8;
        min = Math.min(min, rtt);
    }

    void reset() {
        sampled = false;
        srtt = 0;
        rttVar = 0;
        min = 0;
        last = 0;
    }

    boolean sampled() {
        return sampled;
    }

    long srtt() {
        return srtt;
    }

    long rttVar() {
        return rttVar;
    }

    long min() {
        return min;
    }

    long last() {
        return last;
    }

    long samples() {
        return samples;
    }
}
