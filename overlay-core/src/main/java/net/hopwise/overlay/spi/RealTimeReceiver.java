package net.hopwise.overlay.spi;

import io.netty.buffer.ByteBuf;

/**
 * Takes a module's packets that arrive on a link's real-time channel (see {@link
 * ModuleContext#sendRealTime}): each new one once, at once, in the order they arrive, which is not
 * always the order they were sent; duplicates never reach it. Called on the node's thread.
 */
@FunctionalInterface
public interface RealTimeReceiver {
    /**
     * One packet.
     *
     * @param link the link it came on
     * @param body the module's body, a view valid only during the call (retain a slice to keep it);
     *     the receiver must not change its bytes
     * @param deadlineNanos the sender's deadline on this node's clock ({@link ModuleContext#nowNanos}):
     *     what it had left when it last left the neighbour, less the link's one-way delay (half its
     *     smoothed round trip); already past for a packet that is late. Pass it on to the next hop.
     * @param recovered whether it filled a gap on this link: a retransmission (or an original
     *     overtaken by its successor)
     */
    void onRealTime(LinkView link, ByteBuf body, long deadlineNanos, boolean recovered);
}
