package net.hopwise.overlay.sim;

/** The queue in front of one link direction: one instance per link, built from a {@link QueueDiscipline}. */
interface PacketQueue {
    /**
     * Offers an arriving packet.
     *
     * @return the packet this arrival caused to be dropped (the arrival itself or another one), or
     *     null when nothing was dropped
     */
    Packet offer(Packet packet, long nowNanos);

    /** The next packet to send, or null when empty. */
    Packet poll(long nowNanos);

    int size();

    /** The link finished sending and found the queue empty: idle time starts now. */
    default void idle(long nowNanos) {
    }
}
