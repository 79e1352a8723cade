package net.hopwise.overlay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * A message delivered to an open port.
 *
 * <p>The payload buffer is only valid during the {@link MessageHandler#onMessage} call that received
 * it: the node releases it afterwards, so copy ({@link #payloadBytes()}) or retain what you keep.
 */
public final class ReceivedMessage {
    private final NodeId source;
    private final String sourceName;
    private final int sourcePort;
    private final int destinationPort;
    private final ByteBuf payload;

    public ReceivedMessage(NodeId source, String sourceName, int sourcePort, int destinationPort, ByteBuf payload) {
        this.source = source;
        this.sourceName = sourceName;
        this.sourcePort = sourcePort;
        this.destinationPort = destinationPort;
        this.payload = payload;
    }

    public NodeId source() {
        return source;
    }

    /** The sending node's name; its id in hex when it is not a neighbour and its link state has not reached us yet. */
    public String sourceName() {
        return sourceName;
    }

    public int sourcePort() {
        return sourcePort;
    }

    public int destinationPort() {
        return destinationPort;
    }

    /** The payload, readable from its reader index; valid only during the callback. */
    public ByteBuf payload() {
        return payload;
    }

    /** A copy of the payload that outlives the callback. */
    public byte[] payloadBytes() {
        return ByteBufUtil.getBytes(payload);
    }
}
