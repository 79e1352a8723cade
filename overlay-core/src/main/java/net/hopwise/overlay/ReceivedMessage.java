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
    private final long flowSequence;
    private final long sendTimeNanos;
    private final boolean recovered;

    /** A message that is not part of a real-time flow. */
    public ReceivedMessage(NodeId source, String sourceName, int sourcePort, int destinationPort, ByteBuf payload) {
        this(source, sourceName, sourcePort, destinationPort, payload, NOT_REAL_TIME, NOT_REAL_TIME);
    }

    /**
     * @param flowSequence the real-time flow's sequence number of this packet (its low 32 bits, which
     *     travel), or {@link #NOT_REAL_TIME}
     * @param sendTimeNanos when the origin sent it, read on this node's clock, or {@link #NOT_REAL_TIME}
     */
    public ReceivedMessage(NodeId source, String sourceName, int sourcePort, int destinationPort, ByteBuf payload,
            long flowSequence, long sendTimeNanos) {
        this(source, sourceName, sourcePort, destinationPort, payload, flowSequence, sendTimeNanos, false);
    }

    /**
     * @param flowSequence the real-time flow's sequence number of this packet (its low 32 bits, which
     *     travel), or {@link #NOT_REAL_TIME}
     * @param sendTimeNanos when the origin sent it, read on this node's clock, or {@link #NOT_REAL_TIME}
     * @param recovered whether a link on the way resent this real-time packet; false for other messages
     */
    public ReceivedMessage(NodeId source, String sourceName, int sourcePort, int destinationPort, ByteBuf payload,
            long flowSequence, long sendTimeNanos, boolean recovered) {
        this.source = source;
        this.sourceName = sourceName;
        this.sourcePort = sourcePort;
        this.destinationPort = destinationPort;
        this.payload = payload;
        this.flowSequence = flowSequence;
        this.sendTimeNanos = sendTimeNanos;
        this.recovered = recovered && flowSequence != NOT_REAL_TIME;
    }

    /** What {@link #flowSequence()} and {@link #sendTimeNanos()} say of a message that is not real-time. */
    public static final long NOT_REAL_TIME = Long.MIN_VALUE;

    /** Whether this packet came on a real-time flow ({@link RealTimeFlow}). */
    public boolean isRealTime() {
        return flowSequence != NOT_REAL_TIME;
    }

    /**
     * The packet's sequence number in its real-time flow, 0 to 2^32 - 1 (the low 32 bits of the
     * sender's count, which wrap): lets a relay spot gaps and reorder on its own terms. {@link
     * #NOT_REAL_TIME} for other messages.
     */
    public long flowSequence() {
        return flowSequence;
    }

    /**
     * When the origin sent this real-time packet, in nanoseconds on this node's monotonic clock
     * ({@link System#nanoTime()} on a live node), so that arrival minus send time is the one-way delay.
     * The origin stamps it on its own clock and every node on the way reads it onto its own by the
     * link's clock offset, which the hellos estimate as NTP does (see {@code LinkView#clockOffsetNanos}):
     * exact between nodes of one machine, which share a clock; across machines within half of each
     * link's round-trip asymmetry. {@link #NOT_REAL_TIME} for other messages.
     */
    public long sendTimeNanos() {
        return sendTimeNanos;
    }

    /**
     * Whether this real-time packet arrived only because a link on its way resent it: a loss that
     * hop-by-hop recovery repaired, later than its neighbours by at least a round trip of that link.
     * Marked by the link that resent it and kept by every node after it. False for a packet that no
     * link had to resend, and for messages that are not real-time.
     */
    public boolean recovered() {
        return recovered;
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
