package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.util.collection.LongObjectHashMap;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeListener;
import net.hopwise.overlay.routing.Router;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * What the stages of one node share: the clock, the neighbours, the way out, the event stream and
 * the few cross-layer questions (where does a packet go next, who is this node). Stages reach each
 * other only through here, never through each other's fields, and only on the node's thread.
 *
 * <p>About 420 lines, just over the house's 400: it is the one seam between the stages, and each of
 * its questions is a short method over the same neighbour table, routes and output.
 */
final class NodeContext {
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    private final NodeConfig config;
    private final NodeId self;
    private final long selfId;
    private final ByteBufAllocator allocator;
    private final NodeOutput output;
    private final NodeCounters counters = new NodeCounters();
    private final ProtocolFaults faults;
    private final LongObjectHashMap<Neighbour> neighbours = new LongObjectHashMap<>();
    private volatile List<Neighbour> neighbourList = List.of();
    /** The same neighbours as an array: the timer and deadline walks run after every input and must not allocate. */
    private Neighbour[] neighbourArray = new Neighbour[0];
    private final List<NodeListener> listeners = new ArrayList<>();
    /** Wall-clock time at construction and the node's time then: event stamps derive from both. */
    private final long startMillis;
    private final long startNanos;
    private long now;
    private long incarnations;
    /** The datagram stages next to the socket (the first nearest), and the bytes they add together. */
    private net.hopwise.overlay.spi.DatagramStage[] datagramStages = new net.hopwise.overlay.spi.DatagramStage[0];
    private int datagramOverhead;

    Router router;
    LinkStage links;
    RealTimeStage realTime;
    ReliableLinkStage reliableLinks;
    SessionStage sessions;
    /** A module's meter for the node's reliable sessions ({@code ModuleContext.admitSessions}); null: none. */
    net.hopwise.overlay.spi.SessionAdmission sessionAdmission;
    DeliveryStage delivery;

    NodeContext(NodeConfig config, ByteBufAllocator allocator, NodeOutput output, long startMillis, long nowNanos) {
        this.config = config;
        this.self = config.id();
        this.selfId = self.value();
        this.allocator = allocator;
        this.output = output;
        this.startMillis = startMillis;
        this.startNanos = nowNanos;
        this.now = nowNanos;
        this.faults = new ProtocolFaults(config.name(), counters);
    }

    NodeConfig config() {
        return config;
    }

    NodeId id() {
        return self;
    }

    long selfId() {
        return selfId;
    }

    ByteBufAllocator allocator() {
        return allocator;
    }

    NodeCounters counters() {
        return counters;
    }

    ProtocolFaults faults() {
        return faults;
    }

    Router router() {
        return router;
    }

    long startMillis() {
        return startMillis;
    }

    void datagramStages(List<net.hopwise.overlay.spi.DatagramStage> stages, int overhead) {
        this.datagramStages = stages.toArray(new net.hopwise.overlay.spi.DatagramStage[0]);
        this.datagramOverhead = overhead;
    }

    /**
     * Bytes the datagram stages add to every datagram: a sender that leaves this much room behind its
     * datagram lets them rewrite it in its own buffer (link security seals in place).
     */
    int datagramOverhead() {
        return datagramOverhead;
    }

    /** The largest datagram the stages above the datagram stages may build: the wire's less their overhead. */
    int maxDatagram() {
        return WireHeader.MAX_DATAGRAM - datagramOverhead;
    }

    /** The largest body behind the wire header in a datagram of this node. */
    int maxBody() {
        return maxDatagram() - WireHeader.LENGTH;
    }

    // ---------------------------------------------------------------- clock

    /** The node's clock: the latest time it was handed. */
    long now() {
        return now;
    }

    void advance(long nowNanos) {
        if (nowNanos > now) {
            now = nowNanos;
        }
    }

    long nextIncarnation() {
        // Grows across restarts (wall-clock base) and within a run (counter): receivers take the newer.
        return (startMillis << 20) + (++incarnations);
    }

    // ---------------------------------------------------------------- neighbours

    Neighbour neighbour(long id) {
        return neighbours.get(id);
    }

    /** Whether {@code n} is still this node's neighbour (not removed, or removed and added anew). */
    boolean isCurrent(Neighbour n) {
        return neighbours.get(n.id().value()) == n;
    }

    boolean hasNeighbour(long id) {
        return neighbours.containsKey(id);
    }

    void putNeighbour(Neighbour n) {
        n.socketWritable = output::writable;
        neighbours.put(n.id().value(), n);
        publishNeighbours();
    }

    Neighbour removeNeighbour(long id) {
        Neighbour n = neighbours.remove(id);
        if (n != null) {
            publishNeighbours();
        }
        return n;
    }

    private void publishNeighbours() {
        List<Neighbour> list = new ArrayList<>(neighbours.values());
        list.sort((a, b) -> a.name().compareTo(b.name()));
        neighbourList = Collections.unmodifiableList(list);
        neighbourArray = list.toArray(new Neighbour[0]);
    }

    /** The neighbours sorted by name; a fresh immutable list after each change, safe from any thread. */
    List<Neighbour> neighbourValues() {
        return neighbourList;
    }

    /** The neighbours sorted by name, for the event loop's walks; replaced, never changed, on each change. */
    Neighbour[] neighbourArray() {
        return neighbourArray;
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

    // ---------------------------------------------------------------- routes

    /** The neighbour a packet to {@code destination} leaves by under a metric, or null when unreachable. */
    Neighbour firstHop(NodeId destination, RoutingMetric metric) {
        NodeId next = router.nextHop(destination, metric);
        return next == null ? null : neighbours.get(next.value());
    }

    /** Whether a destination is reachable now under a metric (itself always is). */
    boolean hasRoute(NodeId destination, RoutingMetric metric) {
        return destination.equals(self) || router.nextHop(destination, metric) != null;
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

    // ---------------------------------------------------------------- output

    /** Whether the socket takes more now; sends are back-pressured otherwise. */
    boolean writable() {
        return output.writable();
    }

    void transmit(Neighbour to, ByteBuf packet) {
        transmit(to, to.address, packet, false);
    }

    void transmit(Neighbour to, InetSocketAddress address, ByteBuf packet) {
        transmit(to, address, packet, false);
    }

    /**
     * Counts the datagram as sent on the link to {@code to}, wherever it goes (a probe goes elsewhere);
     * {@code immediately} sends it at once instead of with the batch.
     */
    void transmit(Neighbour to, InetSocketAddress address, ByteBuf packet, boolean immediately) {
        for (int i = datagramStages.length - 1; i >= 0 && packet != null; i--) {
            try {
                packet = datagramStages[i].outbound(to, address, packet, now);
            } catch (RuntimeException e) {
                faults.record("a datagram to " + to.name() + " in a datagram stage", e, now);
                return; // the stage owned it: what it held is its to release
            }
        }
        if (packet == null) {
            return;
        }
        to.count(Neighbour.PACKETS_SENT, 1);
        to.count(Neighbour.BYTES_SENT, packet.readableBytes());
        counters.add(NodeCounters.PACKETS_SENT, 1);
        counters.add(NodeCounters.BYTES_SENT, packet.readableBytes());
        if (to.transport != null && address.equals(to.address)) {
            to.transport.transmit(packet);
            return;
        }
        if (immediately) {
            output.transmitNow(address, packet);
        } else {
            output.transmit(address, packet);
        }
    }

    /**
     * Sends a datagram that datagram stage {@code stage} made of its own: only the stages nearer the
     * socket see it, on the link whose neighbour is at {@code address} if there is one.
     */
    void transmitOwn(int stage, InetSocketAddress address, ByteBuf packet) {
        Neighbour on = null;
        for (Neighbour n : neighbourValues()) {
            if (n.address.equals(address)) {
                on = n;
                break;
            }
        }
        for (int i = Math.min(stage, datagramStages.length) - 1; i >= 0 && packet != null; i--) {
            try {
                packet = datagramStages[i].outbound(on, address, packet, now);
            } catch (RuntimeException e) {
                faults.record("a datagram to " + address + " in a datagram stage", e, now);
                return;
            }
        }
        if (packet == null) {
            return;
        }
        if (on != null) {
            on.count(Neighbour.PACKETS_SENT, 1);
            on.count(Neighbour.BYTES_SENT, packet.readableBytes());
        }
        counters.add(NodeCounters.PACKETS_SENT, 1);
        counters.add(NodeCounters.BYTES_SENT, packet.readableBytes());
        if (on != null && on.transport != null) {
            on.transport.transmit(packet);
            return;
        }
        output.transmitNow(address, packet);
    }

    void sendControl(Neighbour to, PacketType type, Consumer<ByteBuf> body) {
        sendControl(to, to.address, type, body);
    }

    void sendControl(Neighbour to, InetSocketAddress address, PacketType type, Consumer<ByteBuf> body) {
        ByteBuf packet = allocator.ioBuffer(maxDatagram());
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

    /** A datagram of any type code around a body the caller owns: header, then the body's bytes. */
    void sendBody(Neighbour to, int type, ByteBuf body, boolean immediately) {
        ByteBuf header = header(to, type, body.readableBytes());
        transmit(to, to.address, withHeader(header, body), immediately);
    }

    /**
     * The datagram of {@code header} before {@code body}, with a reference of its own to the body. A
     * composite body that nothing else holds (a module's header before its payload, built for this
     * send) takes the header as its first component, instead of a second composite around it: a
     * relay sends one per packet and child.
     */
    private ByteBuf withHeader(ByteBuf header, ByteBuf body) {
        if (body instanceof CompositeByteBuf c && c.refCnt() == 1 && c.readerIndex() == 0
                && c.writerIndex() == c.capacity() && c.numComponents() < c.maxNumComponents()) {
            return c.addComponent(true, 0, header).retain();
        }
        return allocator.compositeDirectBuffer(2).addComponents(true, header, body.retainedSlice());
    }

    /**
     * One body to several neighbours, each behind a header of its own, the body shared: every
     * datagram is a composite of a fresh header and a retained view of the same bytes.
     */
    int fanOut(List<Neighbour> to, int type, ByteBuf body) {
        int sent = 0;
        for (Neighbour n : to) {
            ByteBuf header = header(n, type, body.readableBytes());
            CompositeByteBuf datagram = allocator.compositeDirectBuffer(2);
            datagram.addComponents(true, header, body.retainedSlice());
            transmit(n, datagram);
            sent++;
        }
        return sent;
    }

    private ByteBuf header(Neighbour to, int type, int bodyLength) {
        ByteBuf header = allocator.ioBuffer(WireHeader.LENGTH);
        WireHeader.write(header, type, 0, bodyLength, selfId, to.id().value(), to.takeLinkSequence());
        return header;
    }

    /** Runs a task on the node's thread through the driver, which then flushes and re-arms the timer. */
    void execute(Runnable task) {
        output.execute(task);
    }

    // ---------------------------------------------------------------- events

    void addListener(NodeListener listener) {
        listeners.add(listener);
    }

    /** Reports an event to the node's listeners and the modules', stamped with the node's time. */
    void emit(NodeEvent.Kind kind, String peer) {
        emit(kind, peer, null);
    }

    void emit(NodeEvent.Kind kind, String peer, String detail) {
        // Derived from node time, not read from a clock, so simulated runs stay deterministic.
        NodeEvent event = new NodeEvent(kind, config.name(), peer, startMillis + (now - startNanos) / 1_000_000, detail);
        for (int i = 0; i < listeners.size(); i++) {
            try {
                listeners.get(i).onEvent(event);
            } catch (RuntimeException e) {
                faults.record("a module's listener of " + kind, e, now);
            }
        }
        output.event(event);
    }

    // ---------------------------------------------------------------- stages

    RealTimeStage realTimeStage() {
        return realTime;
    }

    ReliableLinkStage reliableLinkStage() {
        return reliableLinks;
    }

    SessionStage sessionStage() {
        return sessions;
    }

    /** Hands a message to the application on a local port. */
    void deliver(long origin, int sourcePort, int port, ByteBuf payload, long flowSequence, long sendTime,
            boolean recovered) {
        delivery.deliver(origin, sourcePort, port, payload, flowSequence, sendTime, recovered);
    }

    boolean isPortOpen(int port) {
        return delivery.isPortOpen(port);
    }
}
