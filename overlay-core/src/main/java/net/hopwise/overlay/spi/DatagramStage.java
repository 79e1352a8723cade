package net.hopwise.overlay.spi;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/**
 * A stage between the socket and the frame stage that sees every datagram both ways, whole: where
 * link security seals and opens datagrams, or a compression or framing layer would sit. Its overhead
 * is fixed for the node's life and taken off every payload limit of the node (fragments, session and
 * real-time payloads, link-state updates, module bodies), so that a sealed datagram still fits the
 * node's largest datagram. In a running node it is a named handler of the channel pipeline for what
 * arrives (between the user's handlers and the frame stage); what leaves passes it as the node
 * writes it. The simulator runs it at the same two points.
 */
public interface DatagramStage {
    /** Bytes it adds to every datagram it sends (headers and trailers together). */
    int overhead();

    /**
     * A datagram that arrived, before the frame check. Returns what goes on: the same buffer, or a new
     * one that the node releases once the chain is done with it; null when the stage drops it
     * (counted by the stage, with a drop reason of its module). The caller keeps ownership of {@code
     * datagram}, but its bytes are the node's own (no other reader sees them), so a stage may rewrite
     * them and its indexes in place and pass the same buffer on, as link security does when it opens
     * a datagram.
     */
    ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos);

    /**
     * A datagram leaving on {@code link} for {@code address} (which differs from the link's address
     * only for a probe). {@code link} is null for a datagram that a stage further from the socket sent
     * of its own ({@link ModuleContext#sendDatagram}) to an address that is no neighbour's. Takes
     * ownership of {@code datagram}; returns what goes on the wire (owned by the node from then on), or
     * null when the stage drops it.
     */
    ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos);
}
