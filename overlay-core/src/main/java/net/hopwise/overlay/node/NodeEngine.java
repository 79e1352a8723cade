package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.LongObjectHashMap;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.function.IntConsumer;
import net.hopwise.overlay.MessageHandler;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.ReceivedMessage;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.forward.Reassembler;
import net.hopwise.overlay.link.LinkMonitor;
import net.hopwise.overlay.realtime.RealTimeCodec;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.LinkStateAck;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.LinkStateUpdate;
import net.hopwise.overlay.routing.Router;
import net.hopwise.overlay.routing.RouterOutput;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionAcceptor;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.wire.DataHeader;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * One overlay node as a sans-IO machine: links, routing, forwarding and local ports, without sockets,
 * threads or clocks.
 *
 * <p>The IO adapter ({@link net.hopwise.overlay.OverlayNode}) feeds it received datagrams and the
 * passing of time, and transmits what it emits; a simulator can drive the very same class on virtual
 * time. All methods must be called from one thread.
 *
 * <p>The forwarding path is allocation-light: a datagram passing through is checked at fixed offsets,
 * re-stamped in place for the next link and handed on with one more reference; only the destination
 * looks at the payload.
 *
 * <p>Over 900 lines, more than twice the house's 400: it still holds the frame check and dispatch,
 * best-effort sending and forwarding, reassembly and ports, neighbours and the routing glue, and the
 * public facade of every layer it delegates to. The layers it has handed out so far are {@code
 * LinkStage}, {@code ReliableLinkStage}, {@code RealTimeStage} and {@code SessionStage}; the frame,
 * forwarding and delivery go next, when the stages become the node's pipeline handlers.
 */
public final class NodeEngine {
    private static final Logger LOG = System.getLogger(NodeEngine.class.getName());
    private static final RoutingMetric[] METRICS = RoutingMetric.values();
    /** Ports above this are handed out by {@link #openPort} when the caller asks for port 0. */
    private static final int FIRST_EPHEMERAL_PORT = 49152;

    private final NodeConfig config;
    private final NodeId self;
    private final long selfId;
    private final ByteBufAllocator allocator;
    private final NodeOutput output;
    private final Router router;
    private final Reassembler reassembler;
    private final NodeCounters counters = new NodeCounters();
    private final ProtocolFaults faults;
    private final List<TimedStep> timedSteps;
    /** Hellos, liveness and addresses of the links. */
    private final LinkStage links;
    private final LongObjectHashMap<Neighbour> neighbours = new LongObjectHashMap<>();
    private final IntObjectHashMap<MessageHandler> ports = new IntObjectHashMap<>();
    private volatile List<Neighbour> neighbourList = List.of();
    private int nextMessageId;
    private int nextEphemeralPort = FIRST_EPHEMERAL_PORT;
    private long now;
    /** Wall-clock time at construction and the engine time then: event stamps derive from both. */
    private final long startMillis;
    private final long startNanos;

    /** Real-time channels (one per neighbour) and the flows arriving at local ports. */
    private final RealTimeStage realTime;
    /** The ends of reliable sessions at this node. */
    private final SessionStage sessions;
    /** The reliable channel of every link. */
    private final ReliableLinkStage reliableLinks;
    private long incarnations;

    /**
     * @param startMillis wall-clock milliseconds at start (the simulator passes virtual ones): the
     *     base of this node's link-state sequence numbers, so a restarted node's advertisements win,
     *     and of the timestamps of its events
     * @param nowNanos the engine's clock now; only differences of it matter
     */
    public NodeEngine(NodeConfig config, ByteBufAllocator allocator, NodeOutput output, long startMillis,
            long nowNanos) {
        this.startMillis = startMillis;
        this.startNanos = nowNanos;
        this.config = config;
        this.self = config.id();
        this.selfId = self.value();
        this.allocator = allocator;
        this.output = output;
        this.now = nowNanos;
        this.faults = new ProtocolFaults(config.name(), counters);
        this.timedSteps = createTimedSteps();
        this.links = new LinkStage(this, counters);
        this.realTime = new RealTimeStage(this, config.realTime(), allocator, counters);
        this.router = new Router(self, config.name(), config.routing(), new RouterEvents(), startMillis, nowNanos);
        this.reassembler = new Reassembler(allocator, config.maxMessageBytes(), config.reassemblyBufferBytes(),
                config.reassemblyTimeout().toNanos(), DataHeader.MAX_FRAGMENT_PAYLOAD);
        this.sessions = new SessionStage(this, config, allocator, counters);
        this.reliableLinks = new ReliableLinkStage(this, config, allocator, counters);
        for (NeighbourConfig n : config.neighbours()) {
            addNeighbour(n, nowNanos);
        }
    }

    /** The engine's clock: the latest time it was handed. */
    long now() {
        return now;
    }

    long selfId() {
        return selfId;
    }

    /** Whether the socket takes more now; sends are back-pressured otherwise. */
    boolean writable() {
        return output.writable();
    }

    /** Whether {@code n} is still this engine's neighbour (not removed, or removed and added anew). */
    boolean isCurrent(Neighbour n) {
        return neighbours.get(n.id().value()) == n;
    }

    public NodeConfig config() {
        return config;
    }

    public NodeId id() {
        return self;
    }

    public Router router() {
        return router;
    }

    public NodeCounters counters() {
        return counters;
    }

    public Reassembler reassembler() {
        return reassembler;
    }

    /** The configured neighbours; a fresh immutable list after each change, safe from any thread. */
    public List<Neighbour> neighbours() {
        return neighbourList;
    }

    public Neighbour neighbour(NodeId id) {
        return neighbours.get(id.value());
    }

    // ---------------------------------------------------------------- neighbours

    /** Adds an overlay link; false when a neighbour of that name is already configured. */
    public boolean addNeighbour(NeighbourConfig config, long nowNanos) {
        advance(nowNanos);
        if (config.id().equals(self)) {
            throw new IllegalArgumentException("node " + this.config.name() + " cannot be its own neighbour");
        }
        if (neighbours.containsKey(config.id().value())) {
            return false;
        }
        Neighbour n = new Neighbour(config);
        neighbours.put(n.id().value(), n);
        n.monitor = new LinkMonitor(self, this.config.name(), n.id(), this.config.hello(), links.eventsOf(n), nowNanos);
        n.statistics = n.monitor.statistics();
        reliableLinks.start(n);
        publishNeighbours();
        output.event(event(NodeEvent.Kind.NEIGHBOUR_ADDED, n.name()));
        return true;
    }

    /** Removes an overlay link; false when no neighbour has that name. */
    public boolean removeNeighbour(String name, long nowNanos) {
        advance(nowNanos);
        Neighbour n = neighbours.remove(NodeId.ofName(name).value());
        if (n == null) {
            return false;
        }
        publishNeighbours();
        realTime.closeRealTimeChannel(n);
        n.reliableSender.close();
        if (n.monitor.status() == net.hopwise.overlay.link.LinkStatus.UP) {
            router.neighbourDown(n.id(), nowNanos);
        }
        output.event(event(NodeEvent.Kind.NEIGHBOUR_REMOVED, n.name()));
        return true;
    }

    private void publishNeighbours() {
        List<Neighbour> list = new ArrayList<>(neighbours.values());
        list.sort((a, b) -> a.name().compareTo(b.name()));
        neighbourList = Collections.unmodifiableList(list);
    }

    // ---------------------------------------------------------------- ports

    /**
     * Opens a port for receiving.
     *
     * @param port 1-65535, or 0 for any free port
     * @return the port opened
     * @throws IllegalArgumentException when the port is out of range or already open
     */
    public int openPort(int port, MessageHandler handler) {
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

    public void closePort(int port) {
        ports.remove(port);
        realTime.forgetRealTimeFlows(port);
    }

    public boolean isPortOpen(int port) {
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

    // ---------------------------------------------------------------- sending

    /**
     * Sends a message best-effort, fragmenting it when it exceeds one datagram.
     *
     * <p>The caller keeps ownership of {@code payload}; its readable bytes are copied into datagrams.
     *
     * @throws IllegalArgumentException when the payload exceeds {@link NodeConfig#maxMessageBytes()}
     *     or a port is out of range
     */
    public SendResult send(int sourcePort, NodeId destination, int destinationPort, ByteBuf payload,
            RoutingMetric metric, long nowNanos) {
        advance(nowNanos);
        int length = payload.readableBytes();
        if (length > config.maxMessageBytes()) {
            throw new IllegalArgumentException("message of " + length + " bytes exceeds maxMessageBytes "
                    + config.maxMessageBytes());
        }
        if (destinationPort < 1 || destinationPort > 65535 || sourcePort < 0 || sourcePort > 65535) {
            throw new IllegalArgumentException("ports must be 1-65535");
        }
        if (destination.equals(self)) {
            counters.messagesSent++;
            deliver(selfId, sourcePort, destinationPort, payload);
            return SendResult.ACCEPTED;
        }
        Neighbour via = firstHop(destination, metric);
        if (via == null) {
            return SendResult.NO_ROUTE;
        }
        if (!output.writable()) {
            return SendResult.BACK_PRESSURED;
        }
        int fragments = Math.max(1, (length + DataHeader.MAX_FRAGMENT_PAYLOAD - 1) / DataHeader.MAX_FRAGMENT_PAYLOAD);
        int messageId = nextMessageId++;
        int offset = payload.readerIndex();
        for (int i = 0; i < fragments; i++) {
            int chunk = Math.min(DataHeader.MAX_FRAGMENT_PAYLOAD, length - i * DataHeader.MAX_FRAGMENT_PAYLOAD);
            ByteBuf packet = allocator.ioBuffer(WireHeader.LENGTH + DataHeader.LENGTH + chunk);
            WireHeader.write(packet, PacketType.DATA, 0, selfId, via.id().value(), via.takeLinkSequence());
            DataHeader.write(packet, selfId, destination.value(), sourcePort, destinationPort, config.hopLimit(),
                    metric.ordinal(), i, fragments, messageId);
            packet.writeBytes(payload, offset + i * DataHeader.MAX_FRAGMENT_PAYLOAD, chunk);
            WireHeader.finish(packet, 0);
            transmit(via, packet);
        }
        counters.messagesSent++;
        return SendResult.ACCEPTED;
    }

    /** Bytes in front of the payload of a single-datagram message: the wire and data headers. */
    public static final int PREPARED_HEADROOM = WireHeader.LENGTH + DataHeader.LENGTH;

    /**
     * Sends a single-datagram message whose payload the caller already wrote behind
     * {@link #PREPARED_HEADROOM} free bytes at the start of {@code packet}: the engine fills in the
     * headers in place and transmits the very buffer, so a message handed over from another thread is
     * copied once, on that thread. Takes ownership of {@code packet} whatever the result.
     */
    public SendResult sendPrepared(int sourcePort, NodeId destination, int destinationPort, ByteBuf packet,
            RoutingMetric metric, long nowNanos) {
        advance(nowNanos);
        int payloadLength = packet.readableBytes() - PREPARED_HEADROOM;
        if (payloadLength < 0 || payloadLength > DataHeader.MAX_FRAGMENT_PAYLOAD || packet.readerIndex() != 0) {
            packet.release();
            throw new IllegalArgumentException("a prepared packet holds " + PREPARED_HEADROOM
                    + " bytes of headroom and at most " + DataHeader.MAX_FRAGMENT_PAYLOAD + " bytes of payload");
        }
        if (destination.equals(self)) {
            try {
                counters.messagesSent++;
                deliver(selfId, sourcePort, destinationPort, packet.slice(PREPARED_HEADROOM, payloadLength));
            } finally {
                packet.release();
            }
            return SendResult.ACCEPTED;
        }
        Neighbour via = firstHop(destination, metric);
        if (via == null) {
            packet.release();
            return SendResult.NO_ROUTE;
        }
        int end = packet.writerIndex();
        packet.writerIndex(0);
        WireHeader.write(packet, PacketType.DATA, 0, selfId, via.id().value(), via.takeLinkSequence());
        DataHeader.write(packet, selfId, destination.value(), sourcePort, destinationPort, config.hopLimit(),
                metric.ordinal(), 0, 1, nextMessageId++);
        packet.writerIndex(end);
        WireHeader.finish(packet, 0);
        counters.messagesSent++;
        transmit(via, packet);
        return SendResult.ACCEPTED;
    }

    /** Counts a drop the IO adapter decided on (for example a queued send whose route vanished). */
    public void recordDrop(DropReason reason) {
        counters.drop(reason);
    }

    /** Whether a destination is reachable now under a metric (itself always is). */
    public boolean hasRoute(NodeId destination, RoutingMetric metric) {
        return destination.equals(self) || router.nextHop(destination, metric) != null;
    }

    // ---------------------------------------------------------------- receiving

    /**
     * Takes one received datagram. The caller keeps ownership and releases it afterwards; the engine
     * retains what it keeps or forwards.
     */
    public void onDatagram(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
        if (closed) {
            return; // a read that raced with stop: whatever it would create could never be released
        }
        advance(nowNanos);
        counters.packetsReceived++;
        counters.bytesReceived += datagram.readableBytes();
        DropReason bad = WireHeader.check(datagram);
        if (bad != null) {
            counters.drop(bad);
            return;
        }
        long receiver = WireHeader.receiver(datagram);
        Neighbour n = neighbours.get(WireHeader.sender(datagram));
        if (n == null || (receiver != 0 && receiver != selfId)) {
            counters.drop(DropReason.NOT_A_NEIGHBOUR);
            return;
        }
        PacketType type = WireHeader.type(datagram);
        if (type != PacketType.HELLO && from != null && !from.equals(n.address)) {
            // Only a hello that proves it is fresh moves a neighbour; anything else from elsewhere
            // would let a third party keep a dead link alive or feed it data.
            counters.drop(DropReason.WRONG_ADDRESS);
            return;
        }
        n.packetsReceived++;
        n.bytesReceived += datagram.readableBytes();
        if (from == null || from.equals(n.address)) {
            n.lastHeardNanos = now;
        }
        try {
            dispatch(n, type, from, datagram);
        } catch (RuntimeException e) {
            faults.record("a " + type + " packet from " + n.name(), e, now);
        }
    }

    private void dispatch(Neighbour n, PacketType type, InetSocketAddress from, ByteBuf datagram) {
        ByteBuf body = WireHeader.body(datagram);
        switch (type) {
            case HELLO -> links.onHello(n, from, datagram, body);
            case LINK_STATE_UPDATE -> {
                LinkStateUpdate update = LinkStateCodec.decodeUpdate(body);
                if (update == null) {
                    counters.drop(DropReason.MALFORMED);
                    return;
                }
                n.monitor.onPacketReceived(WireHeader.linkSequence(datagram), now);
                router.onUpdate(n.id(), update, now);
            }
            case LINK_STATE_ACK -> {
                LinkStateAck ack = LinkStateCodec.decodeAck(body);
                if (ack == null) {
                    counters.drop(DropReason.MALFORMED);
                    return;
                }
                n.monitor.onPacketReceived(WireHeader.linkSequence(datagram), now);
                router.onAck(n.id(), ack, now);
            }
            case DATA -> onData(n, datagram, body);
            case REALTIME_DATA -> realTime.onRealTimeData(n, datagram, body);
            case REALTIME_NACK -> realTime.onRealTimeNack(n, datagram, body);
            case RELIABLE_DATA -> reliableLinks.onReliableData(n, datagram, body);
            case LINK_ACK -> reliableLinks.onLinkAck(n, datagram, body);
            default -> counters.drop(DropReason.UNKNOWN_TYPE);
        }
    }

    private void onData(Neighbour from, ByteBuf datagram, ByteBuf body) {
        if (!DataHeader.isWellFormed(body, METRICS.length)) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        from.monitor.onPacketReceived(WireHeader.linkSequence(datagram), now);
        long destination = DataHeader.destination(body);
        if (destination == selfId) {
            onLocalData(body);
            return;
        }
        int hops = DataHeader.hopLimit(body);
        Neighbour via = forwardingHop(destination, hops, DataHeader.metric(body));
        if (via == null) {
            return;
        }
        DataHeader.setHopLimit(body, hops - 1);
        WireHeader.restamp(datagram, selfId, via.id().value(), via.takeLinkSequence());
        counters.packetsForwarded++;
        transmit(via, datagram.retainedDuplicate());
    }

    private void onLocalData(ByteBuf body) {
        int port = DataHeader.destinationPort(body);
        if (!ports.containsKey(port)) {
            counters.drop(DropReason.PORT_CLOSED);
            return;
        }
        long origin = DataHeader.origin(body);
        int count = DataHeader.fragmentCount(body);
        ByteBuf payload = body.slice(body.readerIndex() + DataHeader.LENGTH, body.readableBytes() - DataHeader.LENGTH);
        if (count == 1) {
            deliver(origin, DataHeader.sourcePort(body), port, payload);
            return;
        }
        Reassembler.Result result = reassembler.accept(origin, DataHeader.messageId(body),
                DataHeader.fragmentIndex(body), count, payload, now);
        if (result.droppedFragments() > 0) {
            counters.drop(DropReason.REASSEMBLY, result.droppedFragments());
        }
        if (result.outcome() == Reassembler.Outcome.COMPLETE) {
            ByteBuf message = result.message();
            try {
                deliver(origin, DataHeader.sourcePort(body), port, message);
            } finally {
                message.release();
            }
        }
    }

    private void deliver(long origin, int sourcePort, int port, ByteBuf payload) {
        deliver(origin, sourcePort, port, payload, ReceivedMessage.NOT_REAL_TIME, ReceivedMessage.NOT_REAL_TIME);
    }

    void deliver(long origin, int sourcePort, int port, ByteBuf payload, long flowSequence, long sendTime) {
        MessageHandler handler = ports.get(port);
        if (handler == null) {
            counters.drop(DropReason.PORT_CLOSED);
            return;
        }
        NodeId source = new NodeId(origin);
        String name = nameOf(origin);
        counters.messagesDelivered++;
        try {
            handler.onMessage(new ReceivedMessage(source, name, sourcePort, port, payload.duplicate(), flowSequence,
                    sendTime));
        } catch (RuntimeException e) {
            counters.handlerFailures++;
            LOG.log(Level.WARNING, "message handler on port " + port + " of node " + config.name() + " failed", e);
        }
    }


    // ---------------------------------------------------------------- real-time

    /**
     * Sends one real-time packet: never fragmented, stamped with the send time, routed hop by hop over
     * real-time channels that each recover their own losses while the packet can still be useful.
     *
     * <p>The caller keeps ownership of {@code payload}; its readable bytes are copied.
     *
     * @param flowSequence the flow's end-to-end sequence number (32 bits travel), from which the
     *     destination counts loss
     * @throws IllegalArgumentException when the payload exceeds {@link RealTimeCodec#MAX_PAYLOAD} or a
     *     port is out of range
     */
    public SendResult sendRealTime(int sourcePort, NodeId destination, int destinationPort, long flowSequence,
            ByteBuf payload, RoutingMetric metric, long nowNanos) {
        return realTime.sendRealTime(sourcePort, destination, destinationPort, flowSequence, payload, metric,
                nowNanos);
    }

    /** What the real-time flows arriving at a local port look like now. */
    public List<RealTimeFlowStatistics> realTimeFlows(int port) {
        return realTime.realTimeFlows(port);
    }

    /**
     * What the real-time flows arriving at every local port look like now, by port: for admin views,
     * which do not know which ports the applications opened.
     */
    public List<RealTimeFlowStatistics> realTimeFlows() {
        return realTime.realTimeFlows();
    }

    /**
     * The real-time channel to a neighbour, or null before its first real-time packet; safe from any
     * thread.
     */
    public RealTimeChannel realTimeChannel(NodeId neighbour) {
        return realTime.realTimeChannel(neighbour);
    }

    public RealTimeCounters realTimeCounters() {
        return realTime.realTimeCounters();
    }

    /**
     * A node's name: this node's own, a neighbour's from configuration, anyone else's from link state
     * (its id in hex until its advertisement arrives).
     */
    String nameOf(long id) {
        if (id == selfId) {
            return config.name();
        }
        Neighbour n = neighbours.get(id);
        if (n != null) {
            return n.name();
        }
        NodeId node = new NodeId(id);
        return router.database().nameOf(node).orElseGet(node::toString);
    }

    // ---------------------------------------------------------------- time

    /** Runs everything that is due at {@code nowNanos}. */
    public void onTimer(long nowNanos) {
        if (closed) {
            return;
        }
        advance(nowNanos);
        for (TimedStep step : timedSteps) {
            step.runIfDue(now, faults);
        }
    }

    /** The next instant at which {@link #onTimer} has work, or {@link Long#MAX_VALUE}. */
    public long nextDeadlineNanos() {
        long next = Long.MAX_VALUE;
        for (TimedStep step : timedSteps) {
            next = Math.min(next, step.nextDeadlineNanos());
        }
        return next;
    }

    /** Adds a step to the node's timer, after the protocol's own: for tests of the timer's fault handling. */
    void addTimedStep(TimedStep step) {
        timedSteps.add(step);
    }

    /**
     * The node's timer, one step per machine, each run on its own (see {@link TimedStep}): the links'
     * hellos and liveness first, as they decide what the others see, then routing, reassembly, and
     * the real-time and reliable channels.
     */
    private List<TimedStep> createTimedSteps() {
        List<TimedStep> steps = new ArrayList<>();
        steps.add(new TimedStep("link") {
            @Override
            long deadlineNanos() {
                return links.nextDeadlineNanos();
            }

            @Override
            void run(long nowNanos) {
                links.onTimer(nowNanos);
            }
        });
        steps.add(new TimedStep("routing") {
            @Override
            long deadlineNanos() {
                return router.nextDeadlineNanos();
            }

            @Override
            void run(long nowNanos) {
                router.onTimer(nowNanos);
            }
        });
        steps.add(new TimedStep("reassembly") {
            @Override
            long deadlineNanos() {
                return reassembler.nextDeadlineNanos();
            }

            @Override
            void run(long nowNanos) {
                int expired = reassembler.expire(nowNanos);
                if (expired > 0) {
                    counters.drop(DropReason.REASSEMBLY, expired);
                }
            }
        });
        steps.add(new TimedStep("real-time") {
            @Override
            long deadlineNanos() {
                return realTime.realTimeNextDeadlineNanos();
            }

            @Override
            void run(long nowNanos) {
                realTime.onRealTimeTimer();
            }
        });
        steps.add(new TimedStep("reliable") {
            @Override
            long deadlineNanos() {
                return reliableDeadlineNanos();
            }

            @Override
            void run(long nowNanos) {
                onReliableTimer();
            }
        });
        return steps;
    }

    /** Releases what the engine holds; the engine must not be used afterwards. */
    public void close() {
        closed = true;
        reassembler.close();
        realTime.closeRealTime();
        closeReliable();
    }

    /** Set by {@link #close}: datagrams arriving afterwards are ignored. */
    private boolean closed;

    void advance(long nowNanos) {
        if (nowNanos > now) {
            now = nowNanos;
        }
    }

    // ---------------------------------------------------------------- output

    void transmit(Neighbour to, ByteBuf packet) {
        transmit(to, to.address, packet);
    }

    /** Counts the datagram as sent on the link to {@code to}, wherever it goes (a probe goes elsewhere). */
    private void transmit(Neighbour to, InetSocketAddress address, ByteBuf packet) {
        to.packetsSent++;
        to.bytesSent += packet.readableBytes();
        counters.packetsSent++;
        counters.bytesSent += packet.readableBytes();
        output.transmit(address, packet);
    }

    void sendControl(Neighbour to, PacketType type, java.util.function.Consumer<ByteBuf> body) {
        sendControl(to, to.address, type, body);
    }

    void sendControl(Neighbour to, InetSocketAddress address, PacketType type,
            java.util.function.Consumer<ByteBuf> body) {
        ByteBuf packet = allocator.ioBuffer(WireHeader.MAX_DATAGRAM);
        try {
            WireHeader.write(packet, type, 0, selfId, to.id().value(), to.takeLinkSequence());
            body.accept(packet);
            WireHeader.finish(packet, 0);
        } catch (RuntimeException e) {
            packet.release();
            throw e;
        }
        transmit(to, address, packet);
    }

    private NodeEvent event(NodeEvent.Kind kind, String peer, String detail) {
        // Derived from engine time, not read from a clock, so simulated runs stay deterministic.
        return new NodeEvent(kind, config.name(), peer, startMillis + (now - startNanos) / 1_000_000, detail);
    }

    private NodeEvent event(NodeEvent.Kind kind, String peer) {
        return event(kind, peer, null);
    }

    // ---------------------------------------------------------------- reliable links

    long nextIncarnation() {
        // Grows across restarts (wall-clock base) and within a run (counter): receivers take the newer.
        return (startMillis << 20) + (++incarnations);
    }

    // ---------------------------------------------------------------- reliable sessions

    /** Largest payload of one session packet; longer messages take several. */
    public int sessionPayloadBytes() {
        return sessions.sessionPayloadBytes();
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
    public SessionEndpoint openSession(int localPort, NodeId remote, int remotePort, RoutingMetric metric,
            MessageHandler handler, IntConsumer acknowledged, long nowNanos) {
        return sessions.openSession(localPort, remote, remotePort, metric, handler, acknowledged, nowNanos);
    }

    /** Takes sessions that remote nodes open towards {@code port}; null stops taking them. */
    public void acceptSessions(int port, SessionAcceptor acceptor) {
        sessions.acceptSessions(port, acceptor);
    }

    /** The open session ends. */
    public List<SessionEndpoint> sessions() {
        return sessions.sessions();
    }

    /**
     * Sends a message on a session (its readable bytes are copied).
     *
     * @return ACCEPTED, BACK_PRESSURED when the session's send buffer cannot take it now, or CLOSED
     * @throws IllegalArgumentException when the message exceeds maxMessageBytes or cannot fit the
     *     session's buffers at all
     */
    public SendResult sessionSend(SessionEndpoint session, ByteBuf payload, long nowNanos) {
        return sessions.sessionSend(session, payload, nowNanos);
    }

    /**
     * Bytes a caller leaves free in front of a one-packet message it hands to
     * {@link #sessionSendPrepared}: the headers of its packet and datagram are written there.
     */
    public int sessionHeadroom() {
        return sessions.sessionHeadroom();
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
    public SendResult sessionSendPrepared(SessionEndpoint session, ByteBuf message, long nowNanos) {
        return sessions.sessionSendPrepared(session, message, nowNanos);
    }

    /** Stops (or resumes) handing a session's messages to the application: its window closes meanwhile. */
    public void suspendDelivery(SessionEndpoint session, boolean suspend, long nowNanos) {
        sessions.suspendDelivery(session, suspend, nowNanos);
    }

    /** Closes one end of a session and releases what it holds; undelivered data is dropped. */
    public void closeSession(SessionEndpoint session) {
        sessions.closeSession(session);
    }

    /** The neighbour a packet to {@code destination} leaves by under a metric, or null when unreachable. */
    Neighbour firstHop(NodeId destination, RoutingMetric metric) {
        NodeId next = router.nextHop(destination, metric);
        return next == null ? null : neighbours.get(next.value());
    }

    /**
     * Where a packet passing through goes next, for every kind of routed packet: null, with the drop
     * counted, when its hop limit has run out or its destination is unreachable.
     */
    Neighbour forwardingHop(long destination, int hopLimit, int metric) {
        if (hopLimit <= 1) {
            counters.drop(DropReason.HOP_LIMIT);
            return null;
        }
        Neighbour via = firstHop(new NodeId(destination), METRICS[metric]);
        if (via == null) {
            counters.drop(DropReason.NO_ROUTE);
        }
        return via;
    }


    // ---------------------------------------------------------------- reliable timers

    /**
     * The IO adapter handed over a batch of datagrams read together and reads no more for now: the
     * acknowledgements they call for go out at once, a session's first (it carries the link's too),
     * then one link acknowledgement per neighbour for the whole batch. Without this call they go out
     * at the next {@link #onTimer}, which {@link #nextDeadlineNanos()} asks for at once.
     */
    public void onReadBatchEnd(long nowNanos) {
        advance(nowNanos);
        try {
            sessions.onReadBatchEnd();
            reliableLinks.sendDueAcks();
        } catch (RuntimeException e) {
            faults.record("the acknowledgements of a read batch", e, now);
        }
    }

    private void onReliableTimer() {
        reliableLinks.onSenderTimers();
        sessions.onTimer();
        // Last, so that acknowledgements ride on whatever reliable data went out above.
        reliableLinks.sendDueAcks();
    }

    private long reliableDeadlineNanos() {
        return Math.min(reliableLinks.nextDeadlineNanos(), sessions.nextDeadlineNanos());
    }

    private void closeReliable() {
        sessions.close();
        reliableLinks.close();
    }

    /** Routing's protocol output. */
    private final class RouterEvents implements RouterOutput {
        @Override
        public void sendUpdate(NodeId neighbour, LinkStateUpdate update) {
            Neighbour n = neighbours.get(neighbour.value());
            if (n != null) {
                sendControl(n, PacketType.LINK_STATE_UPDATE, out -> LinkStateCodec.encodeUpdate(update, out));
            }
        }

        @Override
        public void sendAck(NodeId neighbour, LinkStateAck ack) {
            Neighbour n = neighbours.get(neighbour.value());
            if (n != null) {
                sendControl(n, PacketType.LINK_STATE_ACK, out -> LinkStateCodec.encodeAck(ack, out));
            }
        }

        @Override
        public void advertisementRejected(NodeId from, DropReason reason) {
            // Counted per advertisement refused, a unit of link state a neighbour tried to make this
            // node store. Updates from a node whose link is not up are the router's own counter
            // (ignored messages), as they were: their packets are retried once the link is up.
            if (reason != DropReason.NOT_A_NEIGHBOUR) {
                counters.drop(reason);
            }
        }

        @Override
        public void routesChanged(long nowNanos) {
            counters.routeChanges++;
            output.event(event(NodeEvent.Kind.ROUTES_CHANGED, null));
        }
    }

    RealTimeStage realTimeStage() {
        return realTime;
    }

    ReliableLinkStage reliableLinkStage() {
        return reliableLinks;
    }

    ProtocolFaults faults() {
        return faults;
    }

    /** Reports an event to the node's listeners, stamped with the engine's time. */
    void emit(NodeEvent.Kind kind, String peer) {
        output.event(event(kind, peer));
    }

    void emit(NodeEvent.Kind kind, String peer, String detail) {
        output.event(event(kind, peer, detail));
    }

    /** The session layer, for the links that carry its packets. */
    SessionStage sessionStage() {
        return sessions;
    }

    /** All neighbours, for views that iterate. */
    Collection<Neighbour> neighbourValues() {
        return neighbourList;
    }
}
