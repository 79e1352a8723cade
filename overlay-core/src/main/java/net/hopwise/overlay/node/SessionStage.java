package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.collection.IntObjectHashMap;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import net.hopwise.overlay.MessageHandler;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.ReceivedMessage;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.reliable.ReliableLinkCodec;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.ReliableSessionReceiver;
import net.hopwise.overlay.session.ReliableSessionSender;
import net.hopwise.overlay.session.SessionAcceptor;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.session.SessionHeader;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DataHeader;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The session layer of a node, at the two edges of a reliable session: the session ends open here
 * (by the application or accepted from other nodes), their packets built around their payloads and
 * handed to the first link's reliable channel, the packets that arrive for them, their timers and
 * acknowledgements, and the sessions waiting for room on a busy first link. Intermediate nodes never
 * see a session: they forward its packets on their reliable links.
 *
 * <p>Sans-IO like the rest of the node: it reaches links, routes and the clock through the {@link
 * NodeContext} of its node, on the node's thread. Its packets arrive inside the reliable link's
 * datagrams, so it takes no frame of its own; in the chain it runs its timers and, at the end of each
 * batch, sends the acknowledgements the batch called for.
 *
 * <p>The packets themselves are built by {@code SessionPacketBuilder}. About 480 lines, over the
 * house's 400: the table of session ends, their acceptance with its bounds, and the session output
 * (transmit and deliver) share the last-session cache, the blocked set and the headroom arithmetic.
 */
final class SessionStage implements Stage {
    static final String NAME = "session";

    private static final Logger LOG = System.getLogger(NodeContext.class.getName());
    private static final RoutingMetric[] METRICS = RoutingMetric.values();
    private static final int FIRST_EPHEMERAL_PORT = 49152;

    private final NodeContext node;
    private final NodeConfig config;
    private final ByteBufAllocator allocator;
    private final NodeCounters counters;
    /** Builds the session's packets around their payloads. */
    private final SessionPacketBuilder packets;
    /** The session the last packet received belonged to: a stream's packets come in runs. */
    private SessionEndpoint lastSession;
    private final Map<SessionEndpoint.Key, SessionEndpoint> sessions = new HashMap<>();
    private List<SessionEndpoint> sessionList = List.of();
    private final LinkedHashSet<SessionEndpoint> blockedSessions = new LinkedHashSet<>();
    private final IntObjectHashMap<SessionAcceptor> sessionAcceptors = new IntObjectHashMap<>();
    private final SessionPackets sessionPackets = new SessionPackets();
    private final int sessionPayload;
    /**
     * Bytes kept free in front of every routed reliable packet the node builds, for the link header
     * (wire header, reliable prefix, the largest acknowledgement): the first transmission writes it
     * there and sends the packet's own buffer instead of copying it into a datagram.
     */
    private final int linkHeadroom;
    /** Bytes a session keeps free in front of each payload: the link headroom plus data and session headers. */
    private final int sessionHeadroom;
    private int nextSessionPort = FIRST_EPHEMERAL_PORT;
    /** Open sessions that other nodes opened here, bounded by maxAcceptedSessions. */
    private final java.util.Set<SessionEndpoint> acceptedSessions =
            java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    SessionStage(NodeContext node, NodeConfig config, ByteBufAllocator allocator, NodeCounters counters) {
        this.node = node;
        this.config = config;
        this.allocator = allocator;
        this.counters = counters;
        this.sessionPayload = node.maxBody() - ReliableLinkCodec.maxHeaderLength(config.reliableLink().sackBlocks())
                - SessionHeader.PAYLOAD_OFFSET;
        this.linkHeadroom = WireHeader.LENGTH + ReliableLinkCodec.maxHeaderLength(config.reliableLink().sackBlocks());
        this.sessionHeadroom = linkHeadroom + SessionHeader.PAYLOAD_OFFSET;
        this.packets = new SessionPacketBuilder(allocator, linkHeadroom);
    }

    /** Largest payload of one session packet; longer messages take several. */
    int sessionPayloadBytes() {
        return sessionPayload;
    }

    /**
     * Opens one end of a reliable session between a local port and a port of another node (or of
     * this one). Both ends open their session, or the remote end accepts it ({@link #acceptSessions}).
     *
     * @param localPort 1-65535, or 0 for a free one
     * @param handler receives the messages from the remote end, in order, exactly once
     * @param acknowledged hears how many packets the remote end acknowledged (room freed), or null
     * @throws IllegalArgumentException when a port is out of range or the session is already open
     */
    SessionEndpoint openSession(int localPort, NodeId remote, int remotePort, RoutingMetric metric,
            MessageHandler handler, IntConsumer acknowledged, long nowNanos) {
        node.advance(nowNanos);
        if (localPort < 0 || localPort > 65535 || remotePort < 1 || remotePort > 65535) {
            throw new IllegalArgumentException("session ports must be 1-65535 (local 0 for any), got " + localPort
                    + " and " + remotePort);
        }
        if (localPort == 0) {
            localPort = freeSessionPort(remote.value(), remotePort);
        }
        SessionEndpoint.Key key = new SessionEndpoint.Key(localPort, remote.value(), remotePort);
        if (sessions.containsKey(key)) {
            throw new IllegalArgumentException("a session from port " + localPort + " to " + remote + ":" + remotePort
                    + " is already open on node " + config.name());
        }
        return addSession(key, metric, handler, acknowledged);
    }

    int freeSessionPort(long remote, int remotePort) {
        for (int i = 0; i <= 65535 - FIRST_EPHEMERAL_PORT; i++) {
            int candidate = nextSessionPort;
            nextSessionPort = candidate == 65535 ? FIRST_EPHEMERAL_PORT : candidate + 1;
            if (!sessions.containsKey(new SessionEndpoint.Key(candidate, remote, remotePort))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free session port left on node " + config.name());
    }

    SessionEndpoint addSession(SessionEndpoint.Key key, RoutingMetric metric, MessageHandler handler,
            IntConsumer acknowledged) {
        SessionEndpoint s = new SessionEndpoint(key, metric, config.session(), node.nextIncarnation(), allocator, handler,
                acknowledged, sessionPackets);
        s.admit(node.sessionAdmission);
        // The same for every packet of the session: written once here, copied whole per packet.
        ByteBuf header = io.netty.buffer.Unpooled.buffer(DataHeader.LENGTH);
        DataHeader.write(header, node.selfId(), key.remote(), key.localPort(), key.remotePort(), config.hopLimit(),
                metric.ordinal(), 0, 1, 0);
        s.routeHeader(io.netty.buffer.ByteBufUtil.getBytes(header));
        sessions.put(key, s);
        sessionList = List.copyOf(sessions.values());
        return s;
    }

    /** Takes sessions that remote nodes open towards {@code port}; null stops taking them. */
    void acceptSessions(int port, SessionAcceptor acceptor) {
        if (acceptor == null) {
            sessionAcceptors.remove(port);
        } else {
            sessionAcceptors.put(port, acceptor);
        }
    }

    /** The open session ends. */
    List<SessionEndpoint> sessions() {
        return sessionList;
    }

    /**
     * Sends a message on a session (its readable bytes are copied).
     *
     * @return ACCEPTED, BACK_PRESSURED when the session's send buffer cannot take it node.now(), or CLOSED
     * @throws IllegalArgumentException when the message exceeds maxMessageBytes or cannot fit the
     *     session's buffers at all
     */
    SendResult sessionSend(SessionEndpoint session, ByteBuf payload, long nowNanos) {
        node.advance(nowNanos);
        if (session.isClosed()) {
            return SendResult.CLOSED;
        }
        int length = payload.readableBytes();
        if (length > config.maxMessageBytes()) {
            throw new IllegalArgumentException("message of " + length + " bytes exceeds maxMessageBytes "
                    + config.maxMessageBytes());
        }
        int packets = ReliableSessionSender.packetsFor(length, sessionPayload);
        if (packets > config.session().receiveWindow() / 2 || packets > config.session().sendBuffer()) {
            throw new IllegalArgumentException("message of " + length + " bytes needs " + packets
                    + " packets, more than the session buffers take at once");
        }
        if (!session.sender().offer(payload, sessionPayload, sessionHeadroom, allocator, node.now())) {
            return SendResult.BACK_PRESSURED;
        }
        counters.add(NodeCounters.MESSAGES_SENT, 1);
        noteBlocked(session);
        return SendResult.ACCEPTED;
    }

    /**
     * Bytes a caller leaves free in front of a one-packet message it hands to
     * {@link #sessionSendPrepared}: the headers of its packet and datagram are written there.
     */
    int sessionHeadroom() {
        return sessionHeadroom;
    }

    /**
     * Sends a one-packet message whose payload the caller already wrote behind
     * {@link #sessionHeadroom()} free bytes (its reader index): the session keeps the very buffer, and
     * its packet and datagram are built around the payload, so a message handed over from another
     * thread is copied once, on that thread. Takes ownership of {@code message} whatever the result.
     *
     * @return ACCEPTED, BACK_PRESSURED when the session's send buffer is full, or CLOSED
     * @throws IllegalArgumentException when the buffer lacks the headroom or the payload exceeds one packet
     */
    SendResult sessionSendPrepared(SessionEndpoint session, ByteBuf message, long nowNanos) {
        node.advance(nowNanos);
        if (message.readerIndex() < sessionHeadroom || message.readableBytes() > sessionPayload) {
            message.release();
            throw new IllegalArgumentException("a prepared session message holds " + sessionHeadroom
                    + " bytes of headroom and at most " + sessionPayload + " bytes of payload");
        }
        if (session.isClosed()) {
            message.release();
            return SendResult.CLOSED;
        }
        if (!session.sender().offerPrepared(message, node.now())) {
            message.release();
            return SendResult.BACK_PRESSURED;
        }
        counters.add(NodeCounters.MESSAGES_SENT, 1);
        noteBlocked(session);
        return SendResult.ACCEPTED;
    }

    /** Stops (or resumes) handing a session's messages to the application: its window closes meanwhile. */
    void suspendDelivery(SessionEndpoint session, boolean suspend, long nowNanos) {
        node.advance(nowNanos);
        if (session.isClosed()) {
            return;
        }
        if (suspend) {
            session.receiver().suspend();
        } else {
            session.receiver().resume(node.now());
        }
    }

    /** Closes one end of a session and releases what it holds; undelivered data is dropped. */
    void closeSession(SessionEndpoint session) {
        if (sessions.remove(session.key(), session)) {
            sessionList = List.copyOf(sessions.values());
            acceptedSessions.remove(session);
        }
        blockedSessions.remove(session);
        if (lastSession == session) {
            lastSession = null;
        }
        session.close();
    }

    /**
     * A session packet for this node.
     *
     * @param head the packet's data and session headers: the packet itself, or a copy of them
     */
    void onSessionPacket(ByteBuf packet, ByteBuf head) {
        int localPort = DataHeader.destinationPort(head);
        long origin = DataHeader.origin(head);
        int remotePort = DataHeader.sourcePort(head);
        SessionEndpoint s = lastSession;
        if (s == null || s.isClosed() || !s.key().is(localPort, origin, remotePort)) {
            SessionEndpoint.Key key = new SessionEndpoint.Key(localPort, origin, remotePort);
            s = sessions.get(key);
            if (s == null) {
                s = acceptSession(key, head);
                if (s == null) {
                    return;
                }
            }
            lastSession = s;
        }
        int flags = SessionHeader.flags(head);
        if ((flags & SessionHeader.FLAG_ACK) != 0) {
            s.sender().onAck(SessionHeader.ackIncarnation(head), SessionHeader.cumulative(head),
                    SessionHeader.window(head), SessionHeader.echo(head), node.now());
            noteBlocked(s);
        }
        if (SessionHeader.kind(head) == SessionHeader.KIND_DATA && !s.isClosed()) {
            ByteBuf payload = packet.slice(packet.readerIndex() + SessionHeader.PAYLOAD_OFFSET,
                    packet.readableBytes() - SessionHeader.PAYLOAD_OFFSET);
            ReliableSessionReceiver.Arrival arrival = s.receiver().onData(SessionHeader.incarnation(head),
                    SessionHeader.sequence(head), payload, (flags & SessionHeader.FLAG_END_OF_MESSAGE) != 0,
                    SessionHeader.mark(head), SessionHeader.ackInterval(head), node.now());
            if (arrival == ReliableSessionReceiver.Arrival.DUPLICATE) {
                counters.drop(DropReason.DUPLICATE);
            } else if (arrival != ReliableSessionReceiver.Arrival.NEW) {
                counters.drop(DropReason.STALE);
            }
        }
    }

    /** A session another node opens; null, with the drop counted, when it is not taken. */
    SessionEndpoint acceptSession(SessionEndpoint.Key key, ByteBuf packet) {
        SessionAcceptor acceptor = sessionAcceptors.get(key.localPort());
        if (acceptor == null || SessionHeader.kind(packet) != SessionHeader.KIND_DATA) {
            counters.drop(DropReason.PORT_CLOSED);
            return null;
        }
        RoutingMetric metric = METRICS[DataHeader.metric(packet)];
        if (!node.hasRoute(new NodeId(key.remote()), metric)) {
            // An origin this node cannot answer could never acknowledge anything: a made-up one, or
            // one whose link state has not arrived yet, in which case its sender retries.
            counters.drop(DropReason.NO_ROUTE);
            return null;
        }
        if (acceptedSessions.size() >= config.session().maxAcceptedSessions()) {
            counters.drop(DropReason.SESSION_LIMIT);
            return null;
        }
        SessionEndpoint s = addSession(key, metric, null, null);
        acceptedSessions.add(s);
        boolean taken;
        try {
            taken = acceptor.accept(s);
        } catch (RuntimeException e) {
            counters.add(NodeCounters.HANDLER_FAILURES, 1);
            LOG.log(Level.WARNING, "session acceptor on port " + key.localPort() + " of node " + config.name()
                    + " failed", e);
            taken = false;
        }
        if (!taken) {
            closeSession(s);
            counters.drop(DropReason.PORT_CLOSED);
            return null;
        }
        return s;
    }

    void noteBlocked(SessionEndpoint s) {
        if (s.sender().blocked() && !s.isClosed()) {
            blockedSessions.add(s);
        }
    }

    /** Link queues shrank: sessions waiting for room on their first link try again. */
    void pumpBlockedSessions() {
        if (blockedSessions.isEmpty()) {
            return;
        }
        for (SessionEndpoint s : List.copyOf(blockedSessions)) {
            s.sender().pump(node.now());
            if (!s.sender().blocked()) {
                blockedSessions.remove(s);
            }
        }
    }

    /** Hands a session packet to its first link, or straight to the local end when both are here. */
    boolean routeSessionPacket(SessionEndpoint s, Neighbour via, ByteBuf p) {
        if (via == null) {
            try {
                onSessionPacket(p, p);
            } finally {
                p.release();
            }
            return true;
        }
        // No mark from the first link: the session already answers its queue directly (it stops adding
        // at the mark threshold, as Spines blocks its clients), and the link's own congestion control
        // answers the bottleneck behind it. A mark here made the session halve its window for a queue
        // that the link's window, halved for the same loss, was building: two reductions for one
        // congestion event, which left a single-link session well under one fair share. Marks are for
        // queues the edge cannot see: those of transit nodes.
        if (!via.reliableSender.offer(p, node.now())) {
            p.release();
            return false;
        }
        return true;
    }

    void sendSessionAck(SessionEndpoint s) {
        ReliableSessionReceiver rx = s.receiver();
        if (!rx.started()) {
            rx.ackSent();
            return;
        }
        boolean local = s.remote().value() == node.selfId();
        Neighbour via = local ? null : node.firstHop(s.remote(), s.metric());
        if (!local && (via == null || !via.reliableSender.hasRoom())) {
            rx.ackSent(); // no way node.now(); the sender's timer or its next packet brings a new chance
            return;
        }
        routeSessionPacket(s, via, packets.packet(s, SessionHeader.KIND_ACK, 0, 1, 0, 0, null));
    }

    /** Session output: data packets to the first link (when it has room) and messages to the application. */
    private final class SessionPackets implements SessionEndpoint.Output {
        @Override
        public boolean transmit(SessionEndpoint s, long incarnation, int sequence, ByteBuf payload,
                boolean endOfMessage, int ackInterval, boolean retransmission) {
            boolean local = s.remote().value() == node.selfId();
            Neighbour via = local ? null : node.firstHop(s.remote(), s.metric());
            if (!local && (via == null || via.reliableSender.queueLength() >= config.reliableLink().markThreshold())) {
                return false; // no route, or the first link is busy: Spines blocks its clients here too
            }
            int flags = endOfMessage ? SessionHeader.FLAG_END_OF_MESSAGE : 0;
            // A resend gets a buffer of its own: the first transmission may still hold the headroom.
            ByteBuf p = !retransmission && payload.readerIndex() >= sessionHeadroom
                    ? packets.inPlace(s, flags, ackInterval, incarnation, sequence, payload)
                    : packets.packet(s, SessionHeader.KIND_DATA, flags, ackInterval, incarnation, sequence, payload);
            return routeSessionPacket(s, via, p);
        }

        @Override
        public void deliver(SessionEndpoint s, ByteBuf message) {
            MessageHandler handler = s.handler();
            if (handler == null) {
                counters.drop(DropReason.PORT_CLOSED);
                return;
            }
            NodeId source = s.remote();
            String name = node.nameOf(source.value());
            counters.add(NodeCounters.MESSAGES_DELIVERED, 1);
            try {
                handler.onMessage(new ReceivedMessage(source, name, s.remotePort(), s.localPort(), message.duplicate()));
            } catch (RuntimeException e) {
                counters.add(NodeCounters.HANDLER_FAILURES, 1);
                LOG.log(Level.WARNING, "session handler on port " + s.localPort() + " of node " + config.name()
                        + " failed", e);
            }
        }
    }


    /** The sessions' part of a read batch's end: the acknowledgements the batch calls for, at once. */
    @Override
    public boolean takes(int type) {
        return false; // its packets arrive inside the reliable link's, never as frames of their own
    }

    @Override
    public void flush(long nowNanos) {
        List<SessionEndpoint> list = sessionList;
        for (int i = 0, n = list.size(); i < n; i++) { // runs after every batch: no iterator
            SessionEndpoint s = list.get(i);
            if (s.receiver().ackDue(node.now())) {
                sendSessionAck(s);
            }
        }
    }

    /** Time passed: resends, due acknowledgements, and sessions waiting for room try again. */
    @Override
    public void onTimer(long nowNanos) {
        long now = node.now();
        List<SessionEndpoint> list = sessionList;
        for (int i = 0, n = list.size(); i < n; i++) {
            SessionEndpoint s = list.get(i);
            if (s.sender().nextDeadlineNanos() <= now) {
                s.sender().onTimer(now);
                noteBlocked(s);
            }
            if (s.receiver().ackDue(now)) {
                sendSessionAck(s);
            }
        }
        pumpBlockedSessions();
    }

    @Override
    public long nextDeadlineNanos() {
        long next = Long.MAX_VALUE;
        List<SessionEndpoint> list = sessionList;
        for (int i = 0, n = list.size(); i < n; i++) {
            next = Math.min(next, list.get(i).nextDeadlineNanos());
        }
        return next;
    }

    /** Releases every session end; the stage is not used afterwards. */
    @Override
    public void close() {
        for (SessionEndpoint s : sessionList) {
            s.close();
        }
        sessions.clear();
        acceptedSessions.clear();
        sessionList = List.of();
        blockedSessions.clear();
        lastSession = null;
    }
}
