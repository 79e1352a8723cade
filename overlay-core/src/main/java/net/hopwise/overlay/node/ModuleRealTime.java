package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import net.hopwise.overlay.link.LinkStatistics;

/**
 * The real-time header in front of a module's body on a real-time channel:
 *
 * <pre>
 * 0  u32 real-time link sequence (as in every real-time packet, stamped per link)
 * 4  i32 microseconds left before the sender's deadline when the packet left (re-stamped on a resend)
 * 8  the module's body
 * </pre>
 *
 * <p>The deadline travels as time left, not as an instant, so that nodes whose clocks differ still
 * agree on it: each receiver takes off the link's one-way delay, estimated as half its smoothed round
 * trip.
 */
final class ModuleRealTime {
    static final int HEADER = 8;
    private static final int OFFSET_REMAINING = 4;

    private ModuleRealTime() {}

    /** Writes the header; the link sequence is stamped when the channel numbers the packet. */
    static void writeHeader(ByteBuf out, long remainingNanos) {
        out.writeInt(0);
        out.writeInt(micros(remainingNanos));
    }

    /** {@code deadline - now}, saturated rather than wrapped for deadlines at the ends of the range. */
    static long until(long deadlineNanos, long nowNanos) {
        long left = deadlineNanos - nowNanos;
        if (((deadlineNanos ^ nowNanos) & (deadlineNanos ^ left)) < 0) {
            return deadlineNanos > nowNanos ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return left;
    }

    static long remainingNanos(ByteBuf body) {
        return body.getInt(body.readerIndex() + OFFSET_REMAINING) * 1000L;
    }

    /** Shortens the time left of a held packet by the time it was held. */
    static void age(ByteBuf body, long heldNanos) {
        int at = body.readerIndex() + OFFSET_REMAINING;
        body.setInt(at, micros(body.getInt(at) * 1000L - heldNanos));
    }

    /** Half the link's smoothed round trip; 0 before its first measurement. */
    static long oneWayNanos(Neighbour link) {
        LinkStatistics s = link.statistics();
        return s == null ? 0 : s.srttNanos() / 2;
    }

    private static int micros(long nanos) {
        // Saturates: a deadline further than 35 minutes away is as good as none.
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, nanos / 1000));
    }
}
