package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import net.hopwise.overlay.NodeEvent;

/** Where a {@link NodeStack} puts what it produces: the IO adapter, or a simulator. */
public interface NodeOutput {
    /** Sends one datagram; takes ownership of the buffer. */
    void transmit(InetSocketAddress to, ByteBuf datagram);

    /**
     * Sends one datagram at once: after what is already waiting, and before anything that follows,
     * without waiting for the end of the batch or joining a run of datagrams to send together.
     * Takes ownership of the buffer.
     */
    default void transmitNow(InetSocketAddress to, ByteBuf datagram) {
        transmit(to, datagram);
    }

    /** False while the socket cannot take more; sends are then back-pressured. */
    boolean writable();

    /** Reports an event to listeners. */
    void event(NodeEvent event);

    /**
     * Runs a task on the node's thread, then sends what it produced and re-arms the node's timer: how
     * a module's API, called from any thread, reaches its stage. A driver that is single-threaded (a
     * test, the simulator between events) may run it at once.
     */
    default void execute(Runnable task) {
        task.run();
    }
}
