package net.hopwise.overlay.link;

/**
 * How far a neighbour's monotonic clock is from ours, from the hellos' four time stamps, so that a
 * send time stamped on another machine can be read on this node's clock.
 *
 * <p>A hello that echoes ours gives, as NTP's on-wire exchange does: our send time t1, the peer's
 * hold (t3 - t2, its clock), the peer's send time t3 and our arrival t4. The apparent one-way delays
 * are {@code a = t2 - t1} (true delay plus the offset) and {@code b = t4 - t3} (true delay minus the
 * offset). Their half difference estimates the offset, within half the round trip's asymmetry, and
 * the sample of the smallest round trip among the last {@link #WINDOW} is the one least disturbed by
 * queues (NTP's clock filter). Monotonic clocks drift apart by some parts per million, which over a
 * window of hellos is microseconds.
 *
 * <p>When both apparent delays are non-negative, the two clocks may be one (nodes on one machine
 * share its monotonic clock, and a shared clock can only ever give such samples), and the offset is
 * taken as exactly 0 rather than estimated: on one machine the stamps are then exact even over a
 * link whose two directions differ. Two machines' monotonic clocks count from their boots and are
 * seconds to days apart, far outside that band.
 */
public final class ClockOffset {
    /** Samples the filter keeps; with one hello a second, the last eight seconds. */
    static final int WINDOW = 8;

    private final long[] rtt = new long[WINDOW];
    private final long[] offset = new long[WINDOW];
    private int count;
    private int next;
    private long best;

    /**
     * One echoed hello.
     *
     * @param ourSendNanos when we sent the hello the peer echoed (t1, our clock)
     * @param peerHoldNanos how long the peer held it before answering (t3 - t2, its clock)
     * @param peerSendNanos when the peer sent its answer (t3, its clock)
     * @param arrivalNanos when the answer arrived (t4, our clock)
     */
    public void onSample(long ourSendNanos, long peerHoldNanos, long peerSendNanos, long arrivalNanos) {
        long a = peerSendNanos - peerHoldNanos - ourSendNanos;
        long b = arrivalNanos - peerSendNanos;
        long roundTrip = a + b;
        if (peerHoldNanos < 0 || roundTrip < 0) {
            return;
        }
        rtt[next] = roundTrip;
        offset[next] = a >= 0 && b >= 0 ? 0 : a / 2 - b / 2;
        next = (next + 1) % WINDOW;
        count = Math.min(count + 1, WINDOW);
        int min = 0;
        for (int i = 1; i < count; i++) {
            if (rtt[i] < rtt[min]) {
                min = i;
            }
        }
        best = offset[min];
    }

    /** The peer's clock minus ours, nanoseconds; 0 before the first sample or when they may be one. */
    public long offsetNanos() {
        return best;
    }

    /** Whether a sample was taken since creation or the last {@link #reset}. */
    public boolean measured() {
        return count > 0;
    }

    /** Forgets every sample (the peer restarted, perhaps on another machine). */
    public void reset() {
        count = 0;
        next = 0;
        best = 0;
    }
}
