package net.hopwise.overlay.sim;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionEndpoint;

/**
 * A constant-bit-rate application over a reliable session between two overlay nodes: the production
 * hop-by-hop reliable links on every hop and the end-to-end session at the two ends, as an embedding
 * application would use them. The destination accepts the session on {@code port}; the source opens
 * it and hands the engine one message per interval.
 *
 * <p>When the session's send buffer is full, messages wait in the application's queue (a ring of
 * generation times, so its memory is what is waiting and nothing more) and are handed over as soon
 * as the session acknowledges room. Each message's delay runs from its generation to its in-order
 * delivery, so time spent waiting at the sender counts, as in the papers.
 */
public final class OverlaySessionFlow {
    private static final int STAMP_BYTES = 16;

    private final SimNetwork network;
    private final SimNode source;
    private final SimNode destination;
    private final int port;
    private final int flowId;
    private final DelayStatistics delays;
    private final ByteBuf payload;
    private final SessionEndpoint session;
    private long[] waiting = new long[64];
    private int waitingHead;
    private int waitingSize;
    private long nextSequence;
    private long generated;
    private long delivered;
    private long backPressured;
    private boolean drainScheduled;
    private final Action drain = this::drain;

    /**
     * @param flowId this flow's trace subject
     * @param messageBytes bytes per message (at least 16)
     */
    public OverlaySessionFlow(SimNetwork network, int flowId, String source, String destination, int port,
            int messageBytes, RoutingMetric metric, DelayStatistics delays) {
        if (messageBytes < STAMP_BYTES) {
            throw new IllegalArgumentException("messages need at least " + STAMP_BYTES + " bytes, got " + messageBytes);
        }
        this.network = network;
        this.flowId = flowId;
        this.source = network.nodeNamed(source);
        this.destination = network.nodeNamed(destination);
        this.port = port;
        this.delays = Objects.requireNonNull(delays, "delays");
        this.payload = Unpooled.buffer(messageBytes, messageBytes);
        payload.writerIndex(messageBytes);
        this.destination.interact(e -> e.acceptSessions(port, s -> {
            s.handler(m -> {
                ByteBuf p = m.payload();
                long sequence = p.getLong(p.readerIndex());
                long generatedAt = p.getLong(p.readerIndex() + 8);
                long now = network.now();
                delivered++;
                this.delays.add(now - generatedAt);
                network.trace().record(TraceKind.DELIVERED, now, flowId, (int) sequence);
            });
            return true;
        }));
        NodeId to = this.destination.engine().id();
        SessionEndpoint[] opened = new SessionEndpoint[1];
        this.source.interact(e -> opened[0] = e.openSession(port, to, port, Objects.requireNonNull(metric, "metric"),
                m -> { }, acknowledged -> scheduleDrain(), this.source.clock()));
        this.session = opened[0];
    }

    /** Generates one message every {@code intervalNanos} from {@code startNanos} until before {@code stopNanos}. */
    public void start(long startNanos, long intervalNanos, long stopNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be > 0");
        }
        network.at(startNanos, new Action() {
            @Override
            public void run(long nowNanos) {
                generated++;
                enqueue(nowNanos);
                drain(nowNanos);
                long next = startNanos + generated * intervalNanos;
                if (next < stopNanos) {
                    network.at(next, this);
                }
            }
        });
    }

    private void scheduleDrain() {
        // Acknowledgements arrive inside an engine call: hand messages over right after it, not within it.
        if (!drainScheduled && waitingSize > 0) {
            drainScheduled = true;
            network.at(network.now(), drain);
        }
    }

    private void drain(long nowNanos) {
        drainScheduled = false;
        while (waitingSize > 0 && source.isAlive()) {
            long generatedAt = waiting[waitingHead];
            payload.setLong(0, nextSequence);
            payload.setLong(8, generatedAt);
            payload.readerIndex(0);
            SendResult[] result = new SendResult[1];
            source.interact(e -> result[0] = e.sessionSend(session, payload, source.clock()));
            if (result[0] != SendResult.ACCEPTED) {
                backPressured++;
                return;
            }
            nextSequence++;
            waitingHead = (waitingHead + 1) % waiting.length;
            waitingSize--;
        }
    }

    private void enqueue(long generatedAt) {
        if (waitingSize == waiting.length) {
            long[] grown = new long[waiting.length * 2];
            for (int i = 0; i < waitingSize; i++) {
                grown[i] = waiting[(waitingHead + i) % waiting.length];
            }
            waiting = grown;
            waitingHead = 0;
        }
        waiting[(waitingHead + waitingSize) % waiting.length] = generatedAt;
        waitingSize++;
    }

    public long generated() {
        return generated;
    }

    public long delivered() {
        return delivered;
    }

    /** Messages waiting at the source for room in the session. */
    public int waiting() {
        return waitingSize;
    }

    /** Times the session refused a message for lack of room. */
    public long backPressured() {
        return backPressured;
    }

    public SessionEndpoint session() {
        return session;
    }

    public DelayStatistics delays() {
        return delays;
    }
}
