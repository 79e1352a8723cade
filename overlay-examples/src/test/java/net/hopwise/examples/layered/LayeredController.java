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

    /** Whether {@code packet} is of a layer the receiver holds, so that it counts as received. */
    default boolean counts(LayeredPacket packet) {
        return packet.layer() <= level();
    }
}
