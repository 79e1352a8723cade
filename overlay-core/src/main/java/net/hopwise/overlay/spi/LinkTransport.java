package net.hopwise.overlay.spi;

import io.netty.buffer.ByteBuf;

/**
 * How one link's datagrams travel when not by the node's UDP socket: a TCP connection, a tunnel, a
 * test wire. Set per link by a module ({@link ModuleContext#setTransport}); everything above the link
 * (hellos, routing, the reliable and real-time channels) runs unchanged over it. Called on the node's
 * thread.
 */
public interface LinkTransport {
    /** Sends one datagram to the neighbour; takes ownership of it whatever happens. */
    void transmit(ByteBuf datagram);

    /** False while the transport takes no more: sends over this link are back-pressured meanwhile. */
    boolean writable();
}
