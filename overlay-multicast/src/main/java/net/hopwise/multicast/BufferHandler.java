package net.hopwise.multicast;

import io.netty.buffer.Unpooled;

/**
 * A {@link MessageHandler} that takes each message as a view of the node's buffers instead of an array
 * of its own: reliable multicast then hands over the packets it holds without copying them. Join with
 * it like with any handler, e.g. {@code multicast.join("g", 9, (BufferHandler) m -> use(m.payload()))}.
 * The view is valid only during the call: retain or copy what is kept longer (see {@link MulticastBuffer}).
 */
@FunctionalInterface
public interface BufferHandler extends MessageHandler {
    void onBuffer(MulticastBuffer message);

    /** A message that is already an array (best effort, real time, a member at the source): wrapped, not copied. */
    @Override
    default void onMessage(MulticastMessage m) {
        onBuffer(new MulticastBuffer(m.source(), m.sourceName(), m.group(), m.port(), m.messageId(),
                Unpooled.wrappedBuffer(m.payload()).asReadOnly()));
    }
}
