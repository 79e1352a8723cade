package net.hopwise.multicast.layered;

/** Where an {@link EraSender} puts what it sends; the driver carries it on the session's tree. */
public interface LayeredOutput {
    /** One data packet of layer {@code header.layer()}; the packets of a bunch come back to back. */
    void data(LayeredPacket header, long nowNanos);

    /** An announcement, for the base layer's tree (every receiver of the session). */
    void announce(SessionAnnouncement announcement, long nowNanos);
}
