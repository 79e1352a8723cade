package net.hopwise.multicast.layered;

/**
 * The source of a layered session, from {@code Multicast.openLayeredSender}: it sends every layer
 * at its constant rate in packet bunches, whether the application feeds it or not, and keeps no
 * state per receiver (receivers choose their rate by grafting and pruning layers alone). Callable
 * from any thread.
 *
 * <p>What the application offers on a layer rides that layer's next packets, one offer per packet,
 * in order; a packet with nothing queued carries padding, so the layer's rate, which the receivers'
 * bandwidth estimate and their level depend on, never follows the application's.
 */
public interface LayeredSender extends AutoCloseable {
    /** The session's number at this source, as its announcements and packets carry it. */
    int sessionId();

    /** What the source announces: layer rates, packet size, adaptation interval, epoch. */
    SessionAnnouncement announcement();

    /** The most application bytes one packet carries. */
    int payloadRoom();

    /**
     * Queues {@code payload} for the next packet of {@code layer} with room.
     *
     * @return false when that layer's queue is full or the sender is closed (nothing queued)
     * @throws IllegalArgumentException for a layer out of range or a payload over {@link #payloadRoom()}
     */
    boolean offer(int layer, byte[] payload);

    /** Data packets sent so far, padding included. */
    long packetsSent();

    /** Stops the session: no more packets or announcements; receivers drop away on silence. Idempotent. */
    @Override
    void close();
}
