package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.IntConsumer;
import net.hopwise.overlay.MessageHandler;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.forward.Reassembler;
import net.hopwise.overlay.link.LinkMonitor;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.realtime.RealTimeCodec;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.Router;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionAcceptor;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DropReason;

/**
 * One overlay node as a chain of sans-IO stages, built the same way for every driver: the Netty node
 * ({@link net.hopwise.overlay.OverlayNode}) runs each stage as a named handler of its channel
 * pipeline, the simulator and the virtual-time tests call them directly through {@link #onDatagram}.
 * Either way the stages, their order, their timers and the end of each batch are the same code.
 *
 * <p>The chain, in traffic order: {@code frame} (header, sender, address), {@code link} (hellos,
 * liveness, measurements), {@code routing} (flooding, link state, routes), {@code reliable-link},
 * {@code real-time}, {@code forwarding} (best-effort data passing through), {@code session},
 * {@code delivery} (ports, reassembly), then whatever modules add, and {@code unclaimed}, which counts
 * what no stage took. This class composes them and is the node's API towards its driver; the
 * protocol lives in the stages. All methods must be called from one thread.
 *
 * <p>About 480 lines, over the house's 400: the composition is short, the rest is the documented API
 * towards drivers (ports, sends of each kind, sessions, real-time flows, neighbours, the chain), each
 * method a delegation to the stage that owns it.
 */
public final class NodeStack {
    /** Bytes in front of the payload of a single-datagram message: the wire and data headers. */
    public static final int PREPARED_HEADROOM = ForwardingStage.PREPARED_HEADROOM;

    private final NodeContext node;
    private final StageChain chain;
    private final FrameStage frames;
    private final RoutingStage routing;
    private final ForwardingStage forwarding;
    private final ModuleHost modules;
    private final int datagramOverhead;
    private boolean closed;

    /**
     * @param startMillis wall-clock milliseconds at start (the simulator passes virtual ones): the
     *     base of this node's link-state sequence numbers, so a restarted node's advertisements win,
     *     and of the timestamps of its events
     * @param nowNanos the node's clock now; only differences of it matter
     */
    public NodeStack(NodeConfig config, ByteBufAllocator allocator, NodeOutput output, long startMillis,
            long nowNanos) {
        node = new NodeContext(config, allocator, output, startMillis, nowNanos);
        chain = new StageChain(node.faults());
        frames = new FrameStage(node);
        // Modules first: their datagram stages' overhead sets every payload limit of the core stages.
        modules = new ModuleHost(node, frames);
        for (OverlayModule m : config.modules()) {
            modules.install(m);
        }
        datagramOverhead = modules.datagramOverhead();
        node.datagramStages(modules.datagramStages(), datagramOverhead);
        node.links = new LinkStage(node, node.counters());
        routing = new RoutingStage(node, startMillis, nowNanos, modules.linkStateSigner());
        node.router = routing.router();
        node.reliableLinks = new ReliableLinkStage(node, config, allocator, node.counters());
        node.realTime = new RealTimeStage(node, config.realTime(), allocator, node.counters());
        forwarding = new ForwardingStage(node);
        node.sessions = new SessionStage(node, config, allocator, node.counters());
        node.delivery = new DeliveryStage(node);
        chain.add(FrameStage.NAME, frames);
        chain.add(LinkStage.NAME, node.links);
        chain.add(RoutingStage.NAME, routing);
        chain.add(ReliableLinkStage.NAME, node.reliableLinks);
        chain.add(RealTimeStage.NAME, node.realTime);
        chain.add(ForwardingStage.NAME, forwarding);
        chain.add(SessionStage.NAME, node.sessions);
        chain.add(DeliveryStage.NAME, node.delivery);
        chain.add(UnclaimedStage.NAME, new UnclaimedStage(node.counters()));
        modules.place(chain, routing);
        modules.receiver((from, datagram) -> onDatagram(from, datagram, node.now()));
        chain.freeze();
        for (NeighbourConfig n : config.neighbours()) {
            addNeighbour(n, nowNanos);
        }
    }

    public NodeConfig config() {
        return node.config();
    }

    public NodeId id() {
        return node.id();
    }

    public Router router() {
        return node.router();
    }

    public NodeCounters counters() {
        return node.counters();
    }

    public Reassembler reassembler() {
        return node.delivery.reassembler();
    }

    /** The names of the stages in chain order, the first turning datagrams into frames. */
    public List<String> stageNames() {
        return chain.names();
    }

    /** The API object a module offered for {@code type}, or null when no installed module did. */
    public <T> T module(Class<T> type) {
        return modules.api(type);
    }

    // ---------------------------------------------------------------- the chain, for drivers

    /** How many stages the chain has. */
    public int stageCount() {
        return chain.size();
    }

    /**
     * Checks a received datagram in the first stage: the frame to pass to stage 1, or null when it was
     * dropped (counted). The caller keeps ownership of the datagram and calls {@link Frame#clear()}
     * once the chain is done.
     */
    public Frame acceptDatagram(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
        return frames.accept(from, datagram, nowNanos);
    }

    /** Hands a frame to stage {@code index}, {@code next} being what comes after it; faults stop here. */
    public void runStage(int index, Frame frame, FrameSink next) {
        chain.run(index, frame, next);
    }

    /**
     * The first stage from {@code from} on that takes frames of {@code type} (see {@link Stage#takes}):
     * where a driver passes such a frame next; {@link #stageCount()} when none does.
     */
    public int nextStage(int from, int type) {
        return chain.taker(from, type);
    }

    /** The stage at {@code index}, for drivers that wrap it. */
    public Stage stage(int index) {
        return chain.stage(index);
    }

    /**
     * Takes one received datagram and runs it up the chain directly. The caller keeps ownership and
     * releases it afterwards; the stages retain what they keep or forward.
     */
    public void onDatagram(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
        ByteBuf opened = datagram;
        for (int i = 0; i < datagramStageCount() && opened != null; i++) {
            ByteBuf next = openDatagram(i, from, opened, nowNanos);
            if (opened != datagram && next != opened) {
                opened.release();
            }
            opened = next;
        }
        if (opened == null) {
            return;
        }
        try {
            Frame frame = frames.accept(from, opened, nowNanos);
            if (frame != null) {
                try {
                    chain.inbound(1, frame);
                } finally {
                    frame.clear();
                }
            }
        } finally {
            if (opened != datagram) {
                opened.release();
            }
        }
    }

    /** How many datagram stages sit between the socket and the frame stage. */
    public int datagramStageCount() {
        return modules.datagramStages().size();
    }

    /** The names of the datagram stages, the one next to the socket first. */
    public List<String> datagramStageNames() {
        return List.copyOf(modules.datagramStageNames());
    }

    /**
     * Runs datagram stage {@code index} on an arriving datagram (see {@link
     * net.hopwise.overlay.spi.DatagramStage#inbound}): what goes on, or null when it was dropped or the
     * stage failed (counted). The caller keeps ownership of {@code datagram}.
     */
    public ByteBuf openDatagram(int index, InetSocketAddress from, ByteBuf datagram, long nowNanos) {
        node.advance(nowNanos);
        try {
            return modules.datagramStages().get(index).inbound(from, datagram, node.now());
        } catch (RuntimeException e) {
            node.faults().record("a datagram from " + from + " in datagram stage "
                    + modules.datagramStageNames().get(index), e, node.now());
            return null;
        }
    }

    /**
     * Bytes the datagram stages add to every datagram the node sends (link security's header and
     * tag): room a sender leaves behind its datagram lets a stage rewrite it in the same buffer.
     */
    public int datagramOverhead() {
        return datagramOverhead;
    }

    /** Largest payload of a one-datagram best-effort message on this node: more takes several. */
    public int maxFragmentPayload() {
        return forwarding.fragmentPayload();
    }

    /**
     * The driver handed over a batch of datagrams read together and reads no more for now: every
     * stage sends what it held for the batch (the acknowledgements it calls for), from the top down.
     * Without this call they go out at the next {@link #onTimer}, which {@link #nextDeadlineNanos()}
     * asks for at once.
     */
    public void onReadBatchEnd(long nowNanos) {
        node.advance(nowNanos);
        chain.flush(node.now());
    }

    /** Runs everything that is due at {@code nowNanos}. */
    public void onTimer(long nowNanos) {
        if (closed) {
            return;
        }
        node.advance(nowNanos);
        chain.onTimer(node.now());
    }

    /** The next instant at which {@link #onTimer} has work, or {@link Long#MAX_VALUE}. */
    public long nextDeadlineNanos() {
        return chain.nextDeadlineNanos();
    }

    /** Adds a step to the node's timer, after the stages': for tests of the timer's fault handling. */
    void addTimedStep(TimedStep step) {
        chain.addTimedStep(step);
    }

    /** Moves the node's clock to {@code nowNanos} before work the driver runs outside the chain. */
    public void advance(long nowNanos) {
        node.advance(nowNanos);
    }

    /** Releases what the node holds; it must not be used afterwards. */
    public void close() {
        closed = true;
        chain.close(node.now());
    }

    // ---------------------------------------------------------------- neighbours

    /** The configured links; a fresh immutable list after each change, safe from any thread. */
    public List<Neighbour> neighbours() {
        return node.neighbourValues();
    }

    public Neighbour neighbour(NodeId id) {
        return node.neighbour(id.value());
    }

    /** Adds an overlay link; false when a neighbour of that name is already configured. */
    public boolean addNeighbour(NeighbourConfig neighbour, long nowNanos) {
        node.advance(nowNanos);
        if (neighbour.id().equals(node.id())) {
            throw new IllegalArgumentException("node " + node.config().name() + " cannot be its own neighbour");
        }
        if (node.hasNeighbour(neighbour.id().value())) {
            return false;
        }
        Neighbour n = new Neighbour(neighbour, node.config().routing());
        n.monitor = new LinkMonitor(node.id(), node.config().name(), n.id(), node.config().hello(),
                node.links.eventsOf(n), nowNanos);
        n.statistics = n.monitor.statistics();
        node.reliableLinks.start(n);
        node.putNeighbour(n);
        node.emit(NodeEvent.Kind.NEIGHBOUR_ADDED, n.name());
        return true;
    }

    /** Removes an overlay link; false when no neighbour has that name. */
    public boolean removeNeighbour(String name, long nowNanos) {
        node.advance(nowNanos);
        Neighbour n = node.removeNeighbour(NodeId.ofName(name).value());
        if (n == null) {
            return false;
        }
        node.realTime.closeRealTimeChannel(n);
        n.reliableSender.close();
        modules.linkRemoved(n);
        if (n.monitor.status() == LinkStatus.UP) {
            node.router().neighbourDown(n.id(), nowNanos);
        }
        node.emit(NodeEvent.Kind.NEIGHBOUR_REMOVED, n.name());
        return true;
    }

    // ---------------------------------------------------------------- ports and best effort

    /**
     * Opens a port for receiving.
     *
     * @param port 1-65535, or 0 for any free port
     * @return the port opened
     * @throws IllegalArgumentException when the port is out of range or already open
     */
    public int openPort(int port, MessageHandler handler) {
        return node.delivery.openPort(port, handler);
    }

    public void closePort(int port) {
        node.delivery.closePort(port);
        node.realTime.forgetRealTimeFlows(port);
    }

    public boolean isPortOpen(int port) {
        return node.delivery.isPortOpen(port);
    }

    /**
     * Sends a message best-effort, fragmenting it when it exceeds one datagram. The caller keeps
     * ownership of {@code payload}; its readable bytes are copied into datagrams.
     *
     * @throws IllegalArgumentException when the payload exceeds {@link NodeConfig#maxMessageBytes()}
     *     or a port is out of range
     */
    public SendResult send(int sourcePort, NodeId destination, int destinationPort, ByteBuf payload,
            RoutingMetric metric, long nowNanos) {
        node.advance(nowNanos);
        return forwarding.send(sourcePort, destination, destinationPort, payload, metric);
    }

    /**
     * Sends a single-datagram message whose payload the caller already wrote behind
     * {@link #PREPARED_HEADROOM} free bytes at the start of {@code packet}: the headers are filled in
     * place and the very buffer is transmitted, so a message handed over from another thread is
     * copied once, on that thread. Takes ownership of {@code packet} whatever the result.
     */
    public SendResult sendPrepared(int sourcePort, NodeId destination, int destinationPort, ByteBuf packet,
            RoutingMetric metric, long nowNanos) {
        node.advance(nowNanos);
        return forwarding.sendPrepared(sourcePort, destination, destinationPort, packet, metric);
    }

    /** Counts a drop the driver decided on (for example a queued send whose route vanished). */
    public void recordDrop(DropReason reason) {
        node.counters().drop(reason);
    }

    /** Whether a destination is reachable now under a metric (itself always is). */
    public boolean hasRoute(NodeId destination, RoutingMetric metric) {
        return node.hasRoute(destination, metric);
    }

    // ---------------------------------------------------------------- real time

    /**
     * Sends one real-time packet: never fragmented, stamped with the send time, routed hop by hop over
     * real-time channels that each recover their own losses while the packet can still be useful. The
     * caller keeps ownership of {@code payload}; its readable bytes are copied.
     *
     * @param flowSequence the flow's end-to-end sequence number (32 bits travel), from which the
     *     destination counts loss
     * @throws IllegalArgumentException when the payload exceeds {@link RealTimeCodec#MAX_PAYLOAD} or a
     *     port is out of range
     */
    public SendResult sendRealTime(int sourcePort, NodeId destination, int destinationPort, long flowSequence,
            ByteBuf payload, RoutingMetric metric, long nowNanos) {
        return node.realTime.sendRealTime(sourcePort, destination, destinationPort, flowSequence, payload, metric,
                nowNanos);
    }

    /** What the real-time flows arriving at a local port look like now. */
    public List<RealTimeFlowStatistics> realTimeFlows(int port) {
        return node.realTime.realTimeFlows(port);
    }

    /** What the real-time flows arriving at every local port look like now: for admin views. */
    public List<RealTimeFlowStatistics> realTimeFlows() {
        return node.realTime.realTimeFlows();
    }

    /** The real-time channel to a neighbour, or null before its first real-time packet; safe from any thread. */
    public RealTimeChannel realTimeChannel(NodeId neighbour) {
        return node.realTime.realTimeChannel(neighbour);
    }

    public RealTimeCounters realTimeCounters() {
        return node.realTime.realTimeCounters();
    }

    // ---------------------------------------------------------------- reliable sessions

    /** Largest payload of one session packet; longer messages take several. */
    public int sessionPayloadBytes() {
        return node.sessions.sessionPayloadBytes();
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
        return node.sessions.openSession(localPort, remote, remotePort, metric, handler, acknowledged, nowNanos);
    }

    /** Takes sessions that remote nodes open towards {@code port}; null stops taking them. */
    public void acceptSessions(int port, SessionAcceptor acceptor) {
        node.sessions.acceptSessions(port, acceptor);
    }

    /** The open session ends. */
    public List<SessionEndpoint> sessions() {
        return node.sessions.sessions();
    }

    /**
     * Sends a message on a session (its readable bytes are copied).
     *
     * @return ACCEPTED, BACK_PRESSURED when the session's send buffer cannot take it now, or CLOSED
     * @throws IllegalArgumentException when the message exceeds maxMessageBytes or cannot fit the
     *     session's buffers at all
     */
    public SendResult sessionSend(SessionEndpoint session, ByteBuf payload, long nowNanos) {
        return node.sessions.sessionSend(session, payload, nowNanos);
    }

    /**
     * Bytes a caller leaves free in front of a one-packet message it hands to
     * {@link #sessionSendPrepared}: the headers of its packet and datagram are written there.
     */
    public int sessionHeadroom() {
        return node.sessions.sessionHeadroom();
    }

    /**
     * Sends a one-packet message whose payload the caller already wrote behind
     * {@link #sessionHeadroom()} free bytes (its reader index): the session keeps the very buffer.
     * Takes ownership of {@code message} whatever the result.
     *
     * @return ACCEPTED, BACK_PRESSURED when the session's send buffer is full, or CLOSED
     * @throws IllegalArgumentException when the buffer lacks the headroom or the payload exceeds one packet
     */
    public SendResult sessionSendPrepared(SessionEndpoint session, ByteBuf message, long nowNanos) {
        return node.sessions.sessionSendPrepared(session, message, nowNanos);
    }

    /** Stops (or resumes) handing a session's messages to the application: its window closes meanwhile. */
    public void suspendDelivery(SessionEndpoint session, boolean suspend, long nowNanos) {
        node.sessions.suspendDelivery(session, suspend, nowNanos);
    }

    /** Closes one end of a session and releases what it holds; undelivered data is dropped. */
    public void closeSession(SessionEndpoint session) {
        node.sessions.closeSession(session);
    }
}
