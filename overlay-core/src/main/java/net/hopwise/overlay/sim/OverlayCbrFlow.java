package net.hopwise.overlay.sim;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * A constant-bit-rate application on overlay nodes: every interval the source node's engine is asked
 * to send one message to a port on the destination, exactly as an embedding application would, and
 * the destination's port handler records each message's delay from generation to delivery.
 *
 * <p>Each message carries its number and generation instant in its first 16 bytes, so no per-message
 * state is kept outside the packets.
 */
public final class OverlayCbrFlow {
    private static final int STAMP_BYTES = 16;

    private final SimNetwork network;
    private final SimNode source;
    private final SimNode destination;
    private final int port;
    private final RoutingMetric metric;
    private final DelayStatistics delays;
    private final ByteBuf payload;
    private final int flowId;
    private final Service service;
    private long generated;
    private long delivered;
    private long refused;

    /** Which of the node's services carries the messages. */
    public enum Service {
        /** {@code NodeStack.send}: best-effort datagrams, no recovery. */
        BEST_EFFORT,
        /** {@code NodeStack.sendRealTime}: hop-by-hop NACK recovery bounded by the deadline. */
        REAL_TIME
    }

    /** A best-effort flow. */
    public OverlayCbrFlow(SimNetwork network, int flowId, String source, String destination, int port,
            int messageBytes, RoutingMetric metric, DelayStatistics delays) {
        this(network, flowId, source, destination, port, messageBytes, metric, delays, Service.BEST_EFFORT);
    }

    /**
     * @param flowId this flow's trace subject
     * @param messageBytes bytes per message (at least 16)
     */
    public OverlayCbrFlow(SimNetwork network, int flowId, String source, String destination, int port,
            int messageBytes, RoutingMetric metric, DelayStatistics delays, Service service) {
        this.service = Objects.requireNonNull(service, "service");
        if (messageBytes < STAMP_BYTES) {
            throw new IllegalArgumentException("messages need at least " + STAMP_BYTES + " bytes, got " + messageBytes);
        }
        this.network = network;
        this.flowId = flowId;
        this.source = network.nodeNamed(source);
        this.destination = network.nodeNamed(destination);
        this.port = port;
        this.metric = Objects.requireNonNull(metric, "metric");
        this.delays = Objects.requireNonNull(delays, "delays");
        this.payload = Unpooled.buffer(messageBytes, messageBytes);
        payload.writerIndex(messageBytes);
        listen();
    }

    /** (Re)opens the receiving port, for example after the destination restarted. */
    public void listen() {
        this.destination.interact(e -> e.openPort(port, m -> {
            ByteBuf p = m.payload();
            long sequence = p.getLong(p.readerIndex());
            long generatedAt = p.getLong(p.readerIndex() + 8);
            long now = network.now();
            delivered++;
            delays.add(now - generatedAt);
            network.trace().record(TraceKind.DELIVERED, now, flowId, (int) sequence);
        }));
    }

    /** Generates one message every {@code intervalNanos} from {@code startNanos} until before {@code stopNanos}. */
    public void start(long startNanos, long intervalNanos, long stopNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be > 0");
        }
        NodeId to = destination.engine().id();
        network.at(startNanos, new Action() {
            @Override
            public void run(long nowNanos) {
                long sequence = generated++;
                if (source.isAlive()) {
                    payload.setLong(0, sequence);
                    payload.setLong(8, nowNanos);
                    payload.readerIndex(0);
                    SendResult[] result = new SendResult[1];
                    source.interact(e -> result[0] = service == Service.REAL_TIME
                            ? e.sendRealTime(port, to, port, sequence, payload, metric, source.clock())
                            : e.send(port, to, port, payload, metric, source.clock()));
                    if (result[0] != SendResult.ACCEPTED) {
                        refused++;
                    }
                } else {
                    refused++;
                }
                long next = startNanos + generated * intervalNanos;
                if (next < stopNanos) {
                    network.at(next, this);
                }
            }
        });
    }

    public long generated() {
        return generated;
    }

    public long delivered() {
        return delivered;
    }

    /** Messages the source engine refused (no route, back-pressure) or could not send (crashed). */
    public long refused() {
        return refused;
    }

    public DelayStatistics delays() {
        return delays;
    }
}
