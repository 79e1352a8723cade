package net.hopwise.overlay;

import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.realtime.RealTimeCodec;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * A real-time flow from an open port to a port of another node: interactive audio or video.
 *
 * <pre>{@code
 * RealTimeFlow flow = port.openRealTime("d", 5004);
 * flow.send(frame);   // every 20 ms
 * // at d: dPort.realTimeFlows() gives one-way delay, loss, late packets and jitter per flow
 * }</pre>
 *
 * <p>Each packet is sent at once, never fragmented, stamped with its send time and an end-to-end
 * sequence number, and carried hop by hop over real-time links that repair their own losses only
 * while a packet can still be useful. Nothing waits: late is better than blocked. Sends may be made
 * from any thread.
 */
public final class RealTimeFlow {
    private final OverlayPort port;
    private final NodeId destination;
    private final int destinationPort;
    private final RoutingMetric metric;
    private final AtomicLong nextSequence = new AtomicLong();

    RealTimeFlow(OverlayPort port, NodeId destination, int destinationPort, RoutingMetric metric) {
        this.port = port;
        this.destination = destination;
        this.destinationPort = destinationPort;
        this.metric = metric;
    }

    /**
     * Sends one packet (copied; the array may be reused at once).
     *
     * @throws IllegalArgumentException when the payload exceeds {@link #MAX_PAYLOAD} bytes
     */
    public SendResult send(byte[] payload) {
        return send(io.netty.buffer.Unpooled.wrappedBuffer(payload));
    }

    /**
     * Sends the readable bytes of {@code payload} as one packet. The caller keeps ownership: the bytes
     * are copied before this returns (an RTP relay hands over what it read and releases it as usual);
     * the buffer's indices are left as they were. At the destination, {@link
     * ReceivedMessage#flowSequence()} and {@link ReceivedMessage#sendTimeNanos()} carry this packet's
     * sequence number and send time.
     *
     * @throws IllegalArgumentException when the payload exceeds {@link #MAX_PAYLOAD} bytes
     */
    public SendResult send(io.netty.buffer.ByteBuf payload) {
        int length = payload.readableBytes();
        if (length > MAX_PAYLOAD) {
            throw new IllegalArgumentException("real-time packet of " + length + " bytes exceeds " + MAX_PAYLOAD);
        }
        if (!port.isOpen()) {
            return SendResult.CLOSED;
        }
        return port.node().sendRealTime(port.port(), destination, destinationPort, nextSequence.getAndIncrement(),
                payload, metric);
    }

    /** Largest payload of one real-time packet. */
    public static final int MAX_PAYLOAD = RealTimeCodec.MAX_PAYLOAD;

    public NodeId destination() {
        return destination;
    }

    public int destinationPort() {
        return destinationPort;
    }

    public RoutingMetric metric() {
        return metric;
    }

    /** Packets handed to {@link #send} so far (each took one sequence number). */
    public long packetsSent() {
        return nextSequence.get();
    }
}
