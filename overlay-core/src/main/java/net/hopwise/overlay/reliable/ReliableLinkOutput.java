package net.hopwise.overlay.reliable;

import io.netty.buffer.ByteBuf;

/** Where a {@link ReliableLinkSender} puts the packets it sends: the node engine builds the datagrams. */
@FunctionalInterface
public interface ReliableLinkOutput {
    /**
     * Sends one routed packet on the link with the given link-reliable sequence number and the
     * sender's lowest unacknowledged one (see {@link ReliableLinkCodec}). The sender
     * keeps ownership of {@code packet} (it may have to send it again): never change its readable
     * bytes; send a copy, or a view of it with a reference of its own.
     */
    void transmit(long epoch, int sequence, int base, ByteBuf packet, boolean retransmission);
}
