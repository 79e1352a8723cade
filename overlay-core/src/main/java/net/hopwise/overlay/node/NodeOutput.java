package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import net.hopwise.overlay.NodeEvent;

/** Where a {@link NodeEngine} puts what it produces: the IO adapter, or a simulator. */
public interface NodeOutput {
    /** Sends one datagram; takes ownership of the buffer. */
    void transmit(InetSocketAddress to, ByteBuf datagram);

    /** False while the socket cannot take more; sends are then back-pressured. */
    boolean writable();

    /** Reports an event to listeners. */
    void event(NodeEvent event);
}
