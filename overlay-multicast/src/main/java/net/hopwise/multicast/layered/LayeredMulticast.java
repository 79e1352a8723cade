package net.hopwise.multicast.layered;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.multicast.GroupId;
import net.hopwise.multicast.Multicast;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.StagePosition;

/**
 * Layered multicast with ERA congestion control on a node with the multicast module: what {@link
 * Multicast#openLayeredSender} and {@link Multicast#joinLayered} reach, also offered as {@code
 * OverlayNode.module(LayeredMulticast.class)}. Callable from any thread. See {@code
 * docs/multicast.md}.
 */
public final class LayeredMulticast {
    /** The thesis's round trip, until the overlay has measured the path to the source. */
    static final java.time.Duration FALLBACK_RTT = java.time.Duration.ofMillis(50);

    private final LayeredService service;
    private final ModuleContext context;
    private final Multicast multicast;
    private final AtomicInteger nextSession = new AtomicInteger(1);
    private volatile RelayQueueing relayQueueing = RelayQueueing.dropTail();
    /** Every receiver not left, for readers on other threads. */
    private final List<LocalReceiver> live = new CopyOnWriteArrayList<>();

    private LayeredMulticast(ModuleContext context, Multicast multicast, LayeredService service) {
        this.service = service;
        this.context = context;
        this.multicast = multicast;
    }

    /**
     * Installs the layered service beside a node's multicast stage: its packet types, its stage (just
     * after {@code multicastStage}, taking only its own types) and its API. Only from {@code
     * OverlayModule.install}.
     *
     * @return the service, for the multicast stage's {@link Multicast#layered()}
     */
    public static LayeredMulticast install(ModuleContext context, Multicast multicast, String multicastStage) {
        context.registerPacketType(LayeredWire.DATA, "multicast-layered-data");
        context.registerPacketType(LayeredWire.ANNOUNCE, "multicast-layered-announce");
        context.registerPacketType(LayeredWire.SUBSCRIBE, "multicast-layered-subscribe");
        LayeredService service = new LayeredService(context, multicast);
        context.addStage(multicastStage + "-layered", StagePosition.after(multicastStage), service);
        LayeredMulticast api = new LayeredMulticast(context, multicast, service);
        context.provide(LayeredMulticast.class, api);
        return api;
    }

    /**
     * The layered service of the node whose multicast API this is.
     *
     * @throws IllegalStateException when that node was built without it
     */
    public static LayeredMulticast of(Multicast multicast) {
        LayeredMulticast api = Objects.requireNonNull(multicast, "multicast").layered();
        if (api == null) {
            throw new IllegalStateException("this multicast node has no layered service");
        }
        return api;
    }

    /**
     * Starts a layered session from this node to a group's port: every layer at its constant rate
     * from one adaptation interval on, announced every {@code config.announceEveryIntervals()}
     * intervals down the source's tree under {@code metric} (null: the node's default).
     *
     * @throws IllegalArgumentException for a bad group or port, or a packet size this node's headers
     *     leave no room in
     * @throws IllegalStateException when the node is stopped
     */
    public LayeredSender openSender(String group, int port, LayerRates layers, EraConfig config, RoutingMetric metric) {
        GroupId id = GroupId.ofName(group);
        requirePort(port);
        Objects.requireNonNull(layers, "layers");
        int body = config.packetBytes() - context.headroom();
        if (body < LayeredWire.DATA_HEADER || body > context.maxBody()) {
            throw new IllegalArgumentException("packetBytes " + config.packetBytes() + " must be in "
                    + (LayeredWire.DATA_HEADER + context.headroom()) + ".." + (context.maxBody() + context.headroom())
                    + " on this node (its headers and the layered header included)");
        }
        requireOpen();
        RoutingMetric m = metric != null ? metric : context.config().defaultMetric();
        SessionRelay.Key key = new SessionRelay.Key(context.self(), nextSession.getAndIncrement());
        SessionRelay relay = new SessionRelay(key, new LayeredWire.Envelope(m, Math.min(255, context.config().hopLimit()),
                context.self(), id, port), layers.count());
        // The first boundary one interval on: the session starts on the node's thread well before it.
        SourceSession s = new SourceSession(this, service, relay, layers, config, body,
                context.nowNanos() + config.adaptationIntervalNanos());
        run(() -> service.add(s));
        return s;
    }

    /**
     * How this node, as a relay, puts layered data on its outgoing links from now on (the default
     * {@link RelayQueueing#dropTail()}: each packet at once); packets waiting under the old
     * discipline are dropped.
     */
    public void relayQueueing(RelayQueueing queueing) {
        Objects.requireNonNull(queueing, "queueing");
        relayQueueing = queueing;
        run(() -> service.queues().set(queueing));
    }

    /** The relay queueing last set ({@link #relayQueueing(RelayQueueing)}), from any thread. */
    public RelayQueueing relayQueueing() {
        return relayQueueing;
    }

    /**
     * A receiver on a group's port: the node joins the group, the receiver joins the first session
     * announced there and then holds the layers its path carries, under ERA's rules with {@code
     * config}'s receiver parameters (the announcement's packet size and interval are the session's).
     *
     * @throws IllegalArgumentException for a bad group or port
     * @throws IllegalStateException when the node is stopped
     */
    public LayeredReceiver join(String group, int port, EraConfig config, LayeredHandler handler) {
        GroupId id = GroupId.ofName(group);
        requirePort(port);
        requireOpen();
        LocalReceiver r = new LocalReceiver(this, id, port, Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(handler, "handler"), service.handlerError());
        // The node becomes a member of the group, so the sources' announcements come this way.
        r.membership = multicast.join(group, port, m -> { });
        live.add(r);
        try {
            run(() -> service.add(r));
        } catch (IllegalStateException e) {
            live.remove(r);
            r.membership.leave();
            throw e;
        }
        return r;
    }

    /**
     * The layered receivers on this node now, with their levels over time (the latest 256 changes
     * each): what an operator's view shows. From any thread.
     */
    public List<LayeredReceiverView> receivers() {
        List<LayeredReceiverView> views = new ArrayList<>();
        for (LocalReceiver r : live) {
            SessionAnnouncement a = r.announcement();
            views.add(new LayeredReceiverView(r.group(), r.port(), r.source(), a == null ? -1 : a.sessionId(), r.level(),
                    r.rateBitsPerSecond(), r.packetsReceived(), r.history()));
        }
        return views;
    }

    /**
     * This node's part in every layered session whose tree crosses it, its own sources' included:
     * the neighbour it takes each from, and for each neighbour below it the layers it holds and what
     * went to it per layer. An operator's view of which layers cross which link; from any thread,
     * answered by the node's thread (failed with {@link IllegalStateException} when the node is stopped).
     */
    public CompletableFuture<List<LayeredRelayView>> relays() {
        CompletableFuture<List<LayeredRelayView>> f = new CompletableFuture<>();
        try {
            run(() -> f.complete(List.copyOf(service.relayViews())));
        } catch (IllegalStateException e) {
            f.completeExceptionally(e);
        }
        return f;
    }

    void leave(LocalReceiver r) {
        live.remove(r);
        r.membership.leave();
        try {
            run(() -> service.remove(r, context.nowNanos()));
        } catch (IllegalStateException e) {
            // The node stopped: nothing is forwarded any more anyway.
        }
    }

    void closed(SourceSession s) {
        try {
            run(() -> service.remove(s));
        } catch (IllegalStateException e) {
            // The node stopped with it.
        }
    }

    /** The round trip a receiver of {@code source} puts into the TCP equation: twice the tree path's measured latency. */
    RttEstimator rttTo(NodeId source) {
        return RttEstimator.perHopSum(() -> {
            double ms = context.routes().pathCost(source, RoutingMetric.LATENCY);
            return Double.isFinite(ms) && ms > 0 ? Math.round(2 * ms * 1e6) : 0;
        }, FALLBACK_RTT);
    }

    private void run(Runnable task) {
        try {
            context.execute(task);
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("the node is stopped", e);
        }
    }

    private void requireOpen() {
        if (service.closed()) {
            throw new IllegalStateException("the node is stopped");
        }
    }

    LayeredService service() {
        return service;
    }

    private static void requirePort(int port) {
        if (port < 0 || port > Multicast.MAX_PORT) {
            throw new IllegalArgumentException("port must be 0-" + Multicast.MAX_PORT + ", got " + port);
        }
    }
}
