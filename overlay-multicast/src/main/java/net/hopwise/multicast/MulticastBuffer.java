package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import net.hopwise.overlay.NodeId;

/**
 * One message delivered to a {@link BufferHandler}: whole, as a read-only view of the buffers the node
 * holds it in (the packets of a reliable stream stay in the node's repair cache, which its children's
 * repairs come from). Valid only during the handler's call, like a unicast session's message: the
 * handler must not release it, and retains ({@code payload().retainedDuplicate()}) or copies what it
 * keeps longer.
 *
 * @param source the node whose application sent it
 * @param sourceName that node's name as this node's link state knows it
 * @param messageId the source's number for the message (32 bits, wrapping)
 * @param payload the message's bytes, readable from its reader index; its indices are this member's own
 */
public record MulticastBuffer(NodeId source, String sourceName, GroupId group, int port, long messageId,
        ByteBuf payload) {
    /** The bytes as an array of the member's own (a copy). */
    public byte[] payloadBytes() {
        byte[] out = new byte[payload.readableBytes()];
        payload.getBytes(payload.readerIndex(), out);
        return out;
    }
}
