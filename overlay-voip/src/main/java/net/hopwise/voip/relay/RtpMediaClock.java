package net.hopwise.voip.relay;

/**
 * A sender's RTP timestamps read as media time in nanoseconds, for RFC 3550's transit (arrival minus
 * media time), whose change from one packet to the next makes the interarrival jitter (section 6.4.1;
 * appendix A.8 works in timestamp units, which is the same at one clock rate). Each packet's ticks
 * count at its payload type's clock rate: 8000 per second for G.711, 48000 for opus. Timestamps are
 * 32 bits and start anywhere, so a call may cross their wrap (every 24.9 hours at 48 kHz): the step
 * between packets is taken modulo 2^32. A new SSRC or a new clock rate starts a timeline unrelated to
 * the last (RFC 7160 asks a sender for a new SSRC when its clock rate changes; not every one does),
 * joined at the previous packet's transit so that the jitter sees a step of zero there rather than
 * a jump of arbitrary size. The first packet's transit is 0: only changes mean anything. Sans-IO,
 * one instance per sender, on the relay's loop.
 */
final class RtpMediaClock {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private boolean started;
    private long ssrc;
    private int clockRate;
    private long lastTimestamp;
    /** Ticks from the timeline's first packet to the last one, at {@link #clockRate}. */
    private long ticks;
    /** The arrival-clock instant the timeline's media time starts from. */
    private long originNanos;
    private long lastTransitNanos;

    /**
     * The transit of a packet.
     *
     * @param ssrc its SSRC (32 bits, unsigned)
     * @param timestamp its RTP timestamp (32 bits, unsigned)
     * @param clockRate its payload type's clock rate, positive
     * @param arrivalNanos when it arrived
     */
    long transitNanos(long ssrc, long timestamp, int clockRate, long arrivalNanos) {
        if (!started || ssrc != this.ssrc || clockRate != this.clockRate) {
            originNanos = arrivalNanos - (started ? lastTransitNanos : 0);
            ticks = 0;
            this.ssrc = ssrc;
            this.clockRate = clockRate;
            started = true;
        } else {
            ticks += (int) (timestamp - lastTimestamp);
        }
        lastTimestamp = timestamp;
        // Whole seconds, then the rest: exact to the nanosecond, and no overflow however long the call.
        long media = originNanos + ticks / clockRate * NANOS_PER_SECOND + ticks % clockRate * NANOS_PER_SECOND / clockRate;
        lastTransitNanos = arrivalNanos - media;
        return lastTransitNanos;
    }
}
