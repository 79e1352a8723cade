package net.hopwise.multicast.layered;

import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.hopwise.multicast.Multicast;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.Stage;

/**
 * Layered multicast on one node, as a stage of its own packet types: the sources it runs, the
 * receivers on it, and its part in every session whose tree crosses it ({@link SessionRelay}).
 *
 * <p>A source's announcements go down its shortest-path tree pruned to the group's member nodes
 * (a layered receiver makes its node a member), so every would-be receiver hears one within an
 * interval; a receiver joins nothing before. Data goes only where subscriptions asked for it: each
 * node subscribes to its parent on the source's tree with the set of layers it needs, and a relay
 * forwards each packet of layer k, on receipt and each on its own datagram, to the children whose
 * set holds k. Packets are taken only from the neighbour a node subscribed to, so a transient
 * disagreement of routes neither loops nor duplicates.
 *
 * <p>A few lines over 400: the handling of the three packet types shares the session table and the
 * drop counters; the API half already stands apart ({@link LayeredMulticast}).
 */
final class LayeredService implements Stage {
    /**
     * 1 s: a node repeats its subscription this often while it needs anything, so a lost one (they
     * travel as plain datagrams) costs at most one adaptation interval of the default.
     */
    static final Duration DEFAULT_SUBSCRIPTION_REFRESH = Duration.ofSeconds(1);
    /**
     * 3.5 s: three refreshes and a half missed before a child counts as gone and loses its layers;
     * a crashed child's traffic stops within that, and a child alive behind a lossy link keeps its
     * layers through two lost refreshes in a row.
     */
    static final Duration DEFAULT_CHILD_TIMEOUT = Duration.ofMillis(3500);
    /** Sessions a node keeps state for at once: far above real use, and a bound on forged subscriptions. */
    static final int MAX_SESSIONS = 1024;

    private final ModuleContext context;
    private final Multicast multicast;
    private final NodeId self;
    private final int hopLimit;
    private final long refreshNanos = DEFAULT_SUBSCRIPTION_REFRESH.toNanos();
    private final long childTimeoutNanos = DEFAULT_CHILD_TIMEOUT.toNanos();
    private final Map<SessionRelay.Key, SessionRelay> relays = new HashMap<>();
    private final List<SourceSession> sources = new ArrayList<>();
    private final Map<Object, List<LocalReceiver>> receivers = new HashMap<>();
    private final DropCounter malformed;
    private final DropCounter offTree;
    private final DropCounter hopLimitDrops;
    private final DropCounter unsent;
    private final DropCounter handlerError;
    private final DropCounter tooMany;
    private final SessionRelay.Signal signal = new SessionRelay.Signal() {
        @Override
        public NodeId parent(SessionRelay relay) {
            return parentOn(relay.key().source(), relay.envelope().metric());
        }

        @Override
        public void subscribe(SessionRelay relay, NodeId to, BitSet held) {
            sendOrCount(context.link(to), LayeredWire.SUBSCRIBE, LayeredWire.subscribe(context.allocator(),
                    relay.envelope().withHopLimit(1), relay.key().sessionId(), relay.layers(), held));
        }
    };
    private final RelayQueues queues;
    private long[] childBuffer = new long[16];
    private volatile boolean routesMoved;
    private volatile boolean closed;

    LayeredService(ModuleContext context, Multicast multicast) {
        this.context = context;
        this.multicast = multicast;
        this.self = context.self();
        this.hopLimit = Math.min(255, context.config().hopLimit());
        malformed = context.dropReason("layered_malformed");
        offTree = context.dropReason("layered_off_tree");
        hopLimitDrops = context.dropReason("layered_hop_limit");
        unsent = context.dropReason("layered_unsent");
        handlerError = context.dropReason("layered_handler_error");
        tooMany = context.dropReason("layered_too_many_sessions");
        queues = new RelayQueues(context, unsent, context.dropReason("layered_fair_queue_full"));
        // Links and routes that move may move a session's tree: every node re-checks its parent.
        context.addListener(event -> routesMoved = true);
    }

    /** Sends {@code body} (taken) on {@code link} with the end of the batch; what cannot go is counted. */
    private void sendOrCount(LinkView link, int type, ByteBuf body) {
        if (link == null) {
            body.release();
            unsent.increment();
        } else if (!context.send(link, type, body)) {
            unsent.increment();
        }
    }

    // ---------------------------------------------------------------- what the API hands in

    DropCounter handlerError() {
        return handlerError;
    }

    boolean closed() {
        return closed;
    }

    /** On the node's thread: a source starts. */
    void add(SourceSession s) {
        relays.put(s.relay().key(), s.relay());
        sources.add(s);
    }

    /** On the node's thread: a source stops. */
    void remove(SourceSession s) {
        sources.remove(s);
        relays.remove(s.relay().key());
    }

    /** On the node's thread: a receiver waits for its group's and port's first announcement. */
    void add(LocalReceiver r) {
        receivers.computeIfAbsent(List.of(r.group(), r.port()), k -> new ArrayList<>()).add(r);
    }

    /** On the node's thread: a receiver leaves every layer, and its node prunes what nobody else needs. */
    void remove(LocalReceiver r, long nowNanos) {
        if (r.left()) {
            return;
        }
        r.leaveNow(nowNanos);
        List<LocalReceiver> list = receivers.get(List.of(r.group(), r.port()));
        if (list != null) {
            list.remove(r);
        }
        if (r.relay() != null) {
            settle(r.relay(), nowNanos);
        }
    }

    // ---------------------------------------------------------------- the source's output

    void originate(SessionRelay relay, LayeredPacket p, byte[] payload, int bodyBytes, long nowNanos) {
        ByteBuf body = LayeredWire.data(context.allocator(), relay.envelope(), p, payload, bodyBytes);
        try {
            deliverAndForward(relay, p, body, nowNanos);
        } finally {
            body.release();
        }
    }

    void announce(SessionRelay relay, SessionAnnouncement a, long nowNanos) {
        LayeredWire.Envelope e = relay.envelope();
        hearAnnouncement(e, a, nowNanos);
        sendDownTree(e, a, nowNanos);
    }

    // ---------------------------------------------------------------- the stage

    @Override
    public boolean takes(int type) {
        return type == LayeredWire.DATA || type == LayeredWire.ANNOUNCE || type == LayeredWire.SUBSCRIBE;
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        int type = frame.type();
        if (!takes(type)) {
            next.accept(frame);
            return;
        }
        ByteBuf body = frame.body();
        LayeredWire.Envelope e = LayeredWire.envelope(body);
        if (e == null || closed) {
            malformed.increment();
            return;
        }
        if (type == LayeredWire.DATA) {
            onData(frame.link(), e, body, frame.nowNanos());
        } else if (type == LayeredWire.ANNOUNCE) {
            onAnnouncement(frame.link(), e, body, frame.nowNanos());
        } else {
            onSubscription(frame.link(), e, body, frame.nowNanos());
        }
    }

    private void onData(LinkView from, LayeredWire.Envelope e, ByteBuf body, long nowNanos) {
        LayeredPacket decoded = LayeredWire.packet(body);
        if (decoded == null) {
            malformed.increment();
            return;
        }
        LayeredPacket p = LayeredWire.onThisClock(body, decoded, from.clockOffsetNanos());
        SessionRelay relay = relays.get(new SessionRelay.Key(e.source(), p.sessionId()));
        // Only from the neighbour this node subscribed to: anything else is in flight from a former
        // parent, or a disagreement of routes that could loop.
        if (relay == null || !from.id().equals(relay.upstream())) {
            offTree.increment();
            return;
        }
        if (e.hopLimit() <= 1) {
            deliverLocally(relay, p, body, nowNanos);
            if (relay.forwarding().childrenFor(p.layer(), children(relay)) > 0) {
                hopLimitDrops.increment();
            }
            return;
        }
        ByteBuf out = context.allocator().buffer(body.readableBytes());
        out.writeBytes(body, body.readerIndex(), body.readableBytes());
        out.setByte(2, e.hopLimit() - 1);
        try {
            deliverAndForward(relay, p, out, nowNanos);
        } finally {
            out.release();
        }
    }

    private void deliverLocally(SessionRelay relay, LayeredPacket p, ByteBuf body, long nowNanos) {
        if (!relay.locals().isEmpty()) {
            for (LocalReceiver r : List.copyOf(relay.locals())) {
                r.onPacket(p, body, nowNanos);
            }
            settle(relay, nowNanos);
        }
    }

    /** Delivers here, then sends {@code body} (not taken) to each child that holds the layer, each at once. */
    private void deliverAndForward(SessionRelay relay, LayeredPacket p, ByteBuf body, long nowNanos) {
        int n = relay.forwarding().childrenFor(p.layer(), children(relay));
        long[] to = childBuffer;
        int bytes = body.readableBytes();
        for (int i = 0; i < n; i++) {
            NodeId child = new NodeId(to[i]);
            relay.sent(child, p.layer(), bytes);
            queues.send(child, relay.key(), body.retainedDuplicate(), nowNanos);
        }
        deliverLocally(relay, p, body, nowNanos);
    }

    private long[] children(SessionRelay relay) {
        if (childBuffer.length < relay.layers() + relay.childCount()) {
            childBuffer = new long[relay.layers() + relay.childCount()];
        }
        return childBuffer;
    }

    private void onAnnouncement(LinkView from, LayeredWire.Envelope e, ByteBuf body, long nowNanos) {
        SessionAnnouncement a = LayeredWire.announcement(body);
        if (a == null) {
            malformed.increment();
            return;
        }
        if (!from.id().equals(parentOn(e.source(), e.metric()))) {
            offTree.increment();
            return;
        }
        hearAnnouncement(e, a, nowNanos);
        if (e.hopLimit() > 1) {
            sendDownTree(e.withHopLimit(e.hopLimit() - 1), a, nowNanos);
        }
    }

    /** The receivers of the announcement's group and port on this node hear it; the first binds each. */
    private void hearAnnouncement(LayeredWire.Envelope e, SessionAnnouncement a, long nowNanos) {
        List<LocalReceiver> here = receivers.get(List.of(e.group(), e.port()));
        if (here == null || here.isEmpty()) {
            return;
        }
        SessionRelay.Key key = new SessionRelay.Key(e.source(), a.sessionId());
        SessionRelay relay = relays.get(key);
        if (relay == null) {
            if (relays.size() >= MAX_SESSIONS) {
                tooMany.increment();
                return;
            }
            relay = new SessionRelay(key, e.withHopLimit(hopLimit), a.layers().count());
            relays.put(key, relay);
        } else if (relay.layers() != a.layers().count()) {
            malformed.increment();
            return;
        }
        for (LocalReceiver r : List.copyOf(here)) {
            r.onAnnouncement(relay, a, nowNanos);
        }
        settle(relay, nowNanos);
    }

    /** To this node's children on the source's tree pruned to the group's member nodes. */
    private void sendDownTree(LayeredWire.Envelope e, SessionAnnouncement a, long nowNanos) {
        Map<NodeId, NodeId> tree = context.routes().tree(e.source(), e.metric());
        Set<NodeId> members = multicast.view().getOrDefault(e.group(), Set.of());
        Set<NodeId> onTree = new HashSet<>();
        for (NodeId m : members) {
            NodeId at = m;
            for (int steps = 0; at != null && !at.equals(self) && onTree.add(at) && steps <= tree.size(); steps++) {
                NodeId parent = tree.get(at);
                if (self.equals(parent)) {
                    sendOrCount(context.link(at), LayeredWire.ANNOUNCE, LayeredWire.announce(context.allocator(), e, a));
                }
                at = parent;
            }
        }
    }

    private void onSubscription(LinkView from, LayeredWire.Envelope e, ByteBuf body, long nowNanos) {
        LayeredWire.Subscription s = LayeredWire.subscription(body);
        if (s == null) {
            malformed.increment();
            return;
        }
        SessionRelay.Key key = new SessionRelay.Key(e.source(), s.sessionId());
        SessionRelay relay = relays.get(key);
        if (relay == null) {
            if (s.held().isEmpty()) {
                return;
            }
            if (relays.size() >= MAX_SESSIONS) {
                tooMany.increment();
                return;
            }
            relay = new SessionRelay(key, e.withHopLimit(hopLimit), s.layers());
            relays.put(key, relay);
        } else if (relay.layers() != s.layers()) {
            malformed.increment();
            return;
        }
        relay.onSubscription(from.id(), s.held(), nowNanos);
        settle(relay, nowNanos);
    }

    /** After any input to a session's state: upstream hears what changed; state nobody needs goes. */
    private void settle(SessionRelay relay, long nowNanos) {
        relay.sync(signal, nowNanos, refreshNanos);
        if (relay.idle() && !relay.key().source().equals(self)) {
            relays.remove(relay.key());
        }
    }

    private NodeId parentOn(NodeId source, RoutingMetric metric) {
        if (source.equals(self)) {
            return null;
        }
        return context.routes().tree(source, metric).get(self);
    }

    @Override
    public long nextDeadlineNanos() {
        if (routesMoved) {
            return context.nowNanos();
        }
        long next = queues.nextDeadlineNanos();
        for (SourceSession s : sources) {
            next = Math.min(next, s.nextDeadlineNanos());
        }
        for (List<LocalReceiver> list : receivers.values()) {
            for (LocalReceiver r : list) {
                next = Math.min(next, r.nextDeadlineNanos());
            }
        }
        for (SessionRelay relay : relays.values()) {
            next = Math.min(next, relay.nextDeadlineNanos(childTimeoutNanos));
        }
        return next;
    }

    @Override
    public void onTimer(long nowNanos) {
        routesMoved = false;
        queues.onTimer(nowNanos);
        for (SourceSession s : List.copyOf(sources)) {
            s.onTimer(nowNanos);
        }
        for (List<LocalReceiver> list : receivers.values()) {
            for (LocalReceiver r : List.copyOf(list)) {
                r.onTimer(nowNanos);
            }
        }
        for (SessionRelay relay : List.copyOf(relays.values())) {
            relay.expireChildren(nowNanos, childTimeoutNanos);
            settle(relay, nowNanos);
        }
    }

    @Override
    public void close() {
        closed = true;
        queues.close();
        sources.clear();
        relays.clear();
        receivers.clear();
    }

    // ---------------------------------------------------------------- for tests and operators

    /** This node's state in a session, or null. */
    SessionRelay relay(NodeId source, int sessionId) {
        return relays.get(new SessionRelay.Key(source, sessionId));
    }

    int sessions() {
        return relays.size();
    }

    /** Every session's view at this node, on the node's thread. */
    List<LayeredRelayView> relayViews() {
        List<LayeredRelayView> views = new ArrayList<>();
        for (SessionRelay relay : relays.values()) {
            views.add(relay.view());
        }
        views.sort(java.util.Comparator.comparing((LayeredRelayView v) -> v.source().toString())
                .thenComparingInt(LayeredRelayView::sessionId));
        return views;
    }

    /** The relay's queue discipline on outgoing links; on the node's thread. */
    RelayQueues queues() {
        return queues;
    }
}
