package net.hopwise.overlay.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.function.IntConsumer;
import net.hopwise.overlay.MessageHandler;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.SessionAdmission;

/**
 * One end of a reliable session as the node engine keeps it: the (local port, remote node, remote
 * port) it joins, the metric its packets are routed by, its sending and receiving edges, and who
 * hears of its messages. Sessions are bidirectional: each end sends and receives, and data going
 * one way carries the acknowledgement of the other. Used only on the node's event loop.
 */
public final class SessionEndpoint {
    /** The engine's side of an endpoint: it builds and routes packets and delivers messages. */
    public interface Output {
        boolean transmit(SessionEndpoint session, long incarnation, int sequence, ByteBuf payload,
                boolean endOfMessage, int ackInterval, boolean retransmission);

        void deliver(SessionEndpoint session, ByteBuf message);
    }

    /** Identifies a session at one node. */
    public record Key(int localPort, long remote, int remotePort) {
        /** Whether this is the key of these fields, without building one to compare. */
        public boolean is(int localPort, long remote, int remotePort) {
            return this.localPort == localPort && this.remote == remote && this.remotePort == remotePort;
        }
    }

    private final Key key;
    private final NodeId remote;
    private final RoutingMetric metric;
    private final ReliableSessionSender sender;
    private final ReliableSessionReceiver receiver;
    private volatile MessageHandler handler;
    private volatile IntConsumer acknowledged;
    private boolean closed;
    private byte[] routeHeader;
    /** The admission's account of this session; null while unmetered. */
    private SessionAdmission.Meter meter;

    public SessionEndpoint(Key key, RoutingMetric metric, SessionConfig config, long incarnation,
            ByteBufAllocator allocator, MessageHandler handler, IntConsumer acknowledged, Output output) {
        this.key = key;
        this.remote = new NodeId(key.remote());
        this.metric = metric;
        this.handler = handler;
        this.acknowledged = acknowledged;
        this.sender = new ReliableSessionSender(config, incarnation, new ReliableSessionSender.Output() {
            @Override
            public boolean transmit(long inc, int sequence, ByteBuf payload, boolean end, int interval, boolean again) {
                return output.transmit(SessionEndpoint.this, inc, sequence, payload, end, interval, again);
            }

            @Override
            public void acknowledged(int packets) {
                IntConsumer a = SessionEndpoint.this.acknowledged;
                if (a != null) {
                    a.accept(packets);
                }
            }
        });
        this.receiver = new ReliableSessionReceiver(config, allocator, m -> output.deliver(this, m));
    }

    public Key key() {
        return key;
    }

    public int localPort() {
        return key.localPort();
    }

    public NodeId remote() {
        return remote;
    }

    public int remotePort() {
        return key.remotePort();
    }

    public RoutingMetric metric() {
        return metric;
    }

    public ReliableSessionSender sender() {
        return sender;
    }

    public ReliableSessionReceiver receiver() {
        return receiver;
    }

    public MessageHandler handler() {
        return handler;
    }

    public void handler(MessageHandler handler) {
        this.handler = handler;
    }

    public void onAcknowledged(IntConsumer listener) {
        this.acknowledged = listener;
    }

    /** The routing header every packet of this session starts with, built once by the node; null before. */
    public byte[] routeHeader() {
        return routeHeader;
    }

    public void routeHeader(byte[] header) {
        this.routeHeader = header;
    }

    /**
     * Puts this session's new packets under {@code admission} (null: leaves it unmetered). Once per
     * session, before it sends; on the node's thread.
     */
    public void admit(SessionAdmission admission) {
        if (admission == null || meter != null || closed) {
            return;
        }
        meter = admission.open(remote, metric, sender::wake);
        sender.meter(meter);
    }

    /** Whether a module's admission meters this session. */
    public boolean metered() {
        return meter != null;
    }

    public boolean isClosed() {
        return closed;
    }

    /** The earliest instant either edge wants the time. */
    public long nextDeadlineNanos() {
        return Math.min(sender.nextDeadlineNanos(), receiver.ackDeadline());
    }

    public SessionStatistics statistics() {
        return new SessionStatistics(sender.messagesAccepted(), sender.packetsSent(), sender.retransmissions(),
                sender.timeouts(), sender.marks(), sender.buffered(), sender.congestionWindow(),
                sender.advertisedWindow(), sender.srttNanos(), receiver.packetsReceived(), receiver.duplicates(),
                receiver.messagesDelivered(), receiver.held(), receiver.maxHeld());
    }

    /** Releases both edges' buffers. */
    public void close() {
        if (!closed) {
            closed = true;
            if (meter != null) {
                meter.close();
            }
            sender.close();
            receiver.close();
        }
    }
}
