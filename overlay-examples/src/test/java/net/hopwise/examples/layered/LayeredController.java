package net.hopwise.examples.layered;

import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;

/** A receiver-driven layered congestion controller as the simulator drives it: ERA or a baseline. */
interface LayeredController {
    void join(long nowNanos);

    void onAnnouncement(SessionAnnouncement announcement, long nowNanos);

    void onPacket(LayeredPacket packet, long nowNanos);

    void onTimer(long nowNanos);

    long nextDeadlineNanos();

    /** The highest layer held, -1 when none. */
    int level();

    /**
     * The loss rate each interval decision put into the TCP equation, as {time, rate} pairs (ERA
     * only; empty for the baselines): what the equation saw, to set beside what TCP saw.
     */
    default java.util.List<double[]> equationLoss() {
        return java.util.List.of();
    }

    /** The round trip the controller's TCP equation takes now, nanoseconds (the thesis's constant 50 ms where it has none). */
    default double rttNanos() {
        return 50e6;
    }

    /** Whether {@code packet} is of a layer the receiver holds, so that it counts as received. */
    default boolean counts(LayeredPacket packet) {
        return packet.layer() <= level();
    }
}
