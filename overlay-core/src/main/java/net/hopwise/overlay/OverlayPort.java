package net.hopwise.overlay;

import java.util.List;
import java.util.Objects;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * An open port on a node: sends messages from it and receives those addressed to it.
 *
 * <p>Every method may be called from any thread. Sends never block: their result says whether the
 * message was taken.
 */
public final class OverlayPort implements AutoCloseable {
    private final OverlayNode node;
    private final int port;
    private volatile boolean open = true;

    OverlayPort(OverlayNode node, int port) {
        this.node = node;
        this.port = port;
    }

    public int port() {
        return port;
    }

    public OverlayNode node() {
        return node;
    }

    /** Sends {@code payload} to a port of the named node, routed by the node's default metric. */
    public SendResult send(String destinationNode, int destinationPort, byte[] payload) {
        return send(NodeId.ofName(destinationNode), destinationPort, payload, node.config().defaultMetric());
    }

    public SendResult send(String destinationNode, int destinationPort, byte[] payload, RoutingMetric metric) {
        return send(NodeId.ofName(destinationNode), destinationPort, payload, metric);
    }

    /**
     * Sends {@code payload} (copied; the array may be reused at once) to a port of a node.
     *
     * @throws IllegalArgumentException when the payload exceeds the node's maxMessageBytes or the
     *     destination port is not 1-65535
     */
    public SendResult send(NodeId destination, int destinationPort, byte[] payload, RoutingMetric metric) {
        java.util.Objects.requireNonNull(payload, "payload");
        if (!open) {
            return SendResult.CLOSED;
        }
        return node.send(port, destination, destinationPort, io.netty.buffer.Unpooled.wrappedBuffer(payload), metric);
    }

    /**
     * Sends the readable bytes of {@code payload} to a port of a node. The caller keeps ownership: the
     * bytes are copied before this returns, once, straight into the datagram the node sends (a relay
     * hands over what it read from a socket and releases it as usual); the buffer's indices are left
     * as they were.
     *
     * @throws IllegalArgumentException as {@link #send(NodeId, int, byte[], RoutingMetric)}
     */
    public SendResult send(NodeId destination, int destinationPort, io.netty.buffer.ByteBuf payload,
            RoutingMetric metric) {
        java.util.Objects.requireNonNull(payload, "payload");
        if (!open) {
            return SendResult.CLOSED;
        }
        return node.send(port, destination, destinationPort, payload, metric);
    }

    /**
     * Opens a real-time flow from this port to a port of the named node, routed by the node's
     * real-time metric (expected latency unless configured otherwise).
     */
    public RealTimeFlow openRealTime(String destinationNode, int destinationPort) {
        return openRealTime(NodeId.ofName(destinationNode), destinationPort, node.config().realTime().metric());
    }

    /**
     * Opens a real-time flow to a port of a node under a routing metric.
     *
     * @throws IllegalArgumentException when the destination port is not 1-65535
     */
    public RealTimeFlow openRealTime(NodeId destination, int destinationPort, RoutingMetric metric) {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(metric, "metric");
        if (destinationPort < 1 || destinationPort > 65535) {
            throw new IllegalArgumentException("destination port must be 1-65535, got " + destinationPort);
        }
        return new RealTimeFlow(this, destination, destinationPort, metric);
    }

    /**
     * What the real-time flows arriving at this port look like now: delay, loss, late packets, packets
     * recovered by a link on the way, jitter.
     */
    public List<RealTimeFlowStatistics> realTimeFlows() {
        return node.realTimeFlows(port);
    }

    /**
     * Opens a reliable session from this port to a port of another node (see
     * {@link OverlayNode#openSession(int, String, int, MessageHandler)}); its messages go to
     * {@code handler}, not to this port's handler.
     */
    public ReliableSession openReliable(String destinationNode, int destinationPort, MessageHandler handler) {
        return node.openSession(port, destinationNode, destinationPort, handler);
    }

    /** False while sends would be back-pressured. */
    public boolean isWritable() {
        return open && node.isWritable();
    }

    public boolean isOpen() {
        return open && node.isRunning();
    }

    @Override
    public void close() {
        if (open) {
            open = false;
            node.closePort(port);
        }
    }
}
