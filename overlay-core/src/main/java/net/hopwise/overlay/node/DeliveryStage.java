package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.util.collection.IntObjectHashMap;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import net.hopwise.overlay.MessageHandler;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.ReceivedMessage;
import net.hopwise.overlay.forward.Reassembler;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DataHeader;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;

/**
 * The top of the core chain: a node's ports, and the reassembly of fragmented best-effort messages
 * for them. Every kind of traffic reaches the application through {@link #deliver}.
 */
final class DeliveryStage implements Stage {
    static final String NAME = "delivery";
    static final long NOT_REAL_TIME = ReceivedMessage.NOT_REAL_TIME;
    private static final Logger LOG = System.getLogger(DeliveryStage.class.getName());
    /** Ports above this are handed out by {@link #openPort} when the caller asks for port 0. */
    private static final int FIRST_EPHEMERAL_PORT = 49152;

    private final NodeContext node;
    private final NodeConfig config;
    private final NodeCounters counters;
    private final Reassembler reassembler;
    private final IntObjectHashMap<MessageHandler> ports = new IntObjectHashMap<>();
    private int nextEphemeralPort = FIRST_EPHEMERAL_PORT;

    DeliveryStage(NodeContext node) {
        this.node = node;
        this.config = node.config();
        this.counters = node.counters();
        this.reassembler = new Reassembler(node.allocator(), config.maxMessageBytes(), config.reassemblyBufferBytes(),
                // Fragments of one size across the overlay: every node installs the same datagram
                // stages, so every node's fragments are as large as this node's own.
                config.reassemblyTimeout().toNanos(), node.maxDatagram() - ForwardingStage.PREPARED_HEADROOM);
    }

    Reassembler reassembler() {
        return reassembler;
    }

    @Override
    public boolean takes(int type) {
        return type == PacketType.DATA.code();
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        if (frame.type() != PacketType.DATA.code()) {
            next.accept(frame);
            return;
        }
        // The forwarding stage checked it and passes up only what is for this node.
        ByteBuf body = frame.body();
        int port = DataHeader.destinationPort(body);
        if (!ports.containsKey(port)) {
            counters.drop(DropReason.PORT_CLOSED);
            return;
        }
        long origin = DataHeader.origin(body);
        int count = DataHeader.fragmentCount(body);
        ByteBuf payload = body.slice(body.readerIndex() + DataHeader.LENGTH, body.readableBytes() - DataHeader.LENGTH);
        if (count == 1) {
            deliver(origin, DataHeader.sourcePort(body), port, payload, NOT_REAL_TIME, NOT_REAL_TIME, false);
            return;
        }
        Reassembler.Result result = reassembler.accept(origin, DataHeader.messageId(body),
                DataHeader.fragmentIndex(body), count, payload, frame.nowNanos());
        if (result.droppedFragments() > 0) {
            counters.drop(DropReason.REASSEMBLY, result.droppedFragments());
        }
        if (result.outcome() == Reassembler.Outcome.COMPLETE) {
            ByteBuf message = result.message();
            try {
                deliver(origin, DataHeader.sourcePort(body), port, message, NOT_REAL_TIME, NOT_REAL_TIME, false);
            } finally {
                message.release();
            }
        }
    }

    void deliver(long origin, int sourcePort, int port, ByteBuf payload, long flowSequence, long sendTime,
            boolean recovered) {
        MessageHandler handler = ports.get(port);
        if (handler == null) {
            counters.drop(DropReason.PORT_CLOSED);
            return;
        }
        counters.add(NodeCounters.MESSAGES_DELIVERED, 1);
        try {
            handler.onMessage(new ReceivedMessage(new NodeId(origin), node.nameOf(origin), sourcePort, port,
                    payload.duplicate(), flowSequence, sendTime, recovered));
        } catch (RuntimeException e) {
            counters.add(NodeCounters.HANDLER_FAILURES, 1);
            LOG.log(Level.WARNING, "message handler on port " + port + " of node " + config.name() + " failed", e);
        }
    }

    @Override
    public long nextDeadlineNanos() {
        return reassembler.nextDeadlineNanos();
    }

    @Override
    public void onTimer(long nowNanos) {
        int expired = reassembler.expire(nowNanos);
        if (expired > 0) {
            counters.drop(DropReason.REASSEMBLY, expired);
        }
    }

    @Override
    public void close() {
        reassembler.close();
    }

    /**
     * Opens a port for receiving.
     *
     * @param port 1-65535, or 0 for any free port
     * @return the port opened
     * @throws IllegalArgumentException when the port is out of range or already open
     */
    int openPort(int port, MessageHandler handler) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, got " + port);
        }
        if (port == 0) {
            port = freePort();
        }
        if (ports.containsKey(port)) {
            throw new IllegalArgumentException("port " + port + " is already open on node " + config.name());
        }
        ports.put(port, handler);
        return port;
    }

    void closePort(int port) {
        ports.remove(port);
    }

    boolean isPortOpen(int port) {
        return ports.containsKey(port);
    }

    private int freePort() {
        for (int i = 0; i <= 65535 - FIRST_EPHEMERAL_PORT; i++) {
            int candidate = nextEphemeralPort;
            nextEphemeralPort = candidate == 65535 ? FIRST_EPHEMERAL_PORT : candidate + 1;
            if (!ports.containsKey(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free port left on node " + config.name());
    }
}
