package net.hopwise.admin.overlay;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeListener;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The overlay's events: link up and down at local ends (and for remote links, as the link-state
 * database shows them), reroutes of the service's node, impairment changes. Kept in a bounded log
 * and pushed to server-sent event subscribers.
 *
 * <p>Node listeners run on event loops and must not block, so they only hand work to this class's
 * one thread, which also diffs routes, writes to subscribers and sends a heartbeat comment that
 * keeps idle connections open through proxies.
 */
public final class OverlayEvents implements AutoCloseable, SmartLifecycle {
    /** Idle proxies commonly close connections after 30-60 s of silence. */
    private static final long HEARTBEAT_SECONDS = 15;

    private final OverlayView view;
    private final int capacity;
    private final Deque<OverlayEvent> log = new ArrayDeque<>();
    private final List<SseEmitter> subscribers = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hopwise-admin-events");
        t.setDaemon(true);
        return t;
    });
    private final Map<OverlayNode, NodeListener> listeners = new HashMap<>();
    private long nextId = 1;
    private Map<String, List<String>> routes;

    public OverlayEvents(OverlayView view, int capacity) {
        this.view = view;
        this.capacity = capacity;
        thread.execute(() -> routes = view.routeSignature(view.snapshot()));
        for (OverlayNode node : view.nodes().all().values()) {
            NodeListener l = e -> thread.execute(() -> onNodeEvent(e));
            listeners.put(node, l);
            node.addListener(l);
        }
        thread.scheduleAtFixedRate(this::heartbeat, HEARTBEAT_SECONDS, HEARTBEAT_SECONDS, TimeUnit.SECONDS);
    }

    private void onNodeEvent(NodeEvent e) {
        switch (e.kind()) {
            case LINK_UP -> publish(OverlayEvent.Type.LINK_UP, e.node(), e.peer(), null, null, null, null, null);
            case LINK_DOWN -> publish(OverlayEvent.Type.LINK_DOWN, e.node(), e.peer(), null, null, null, null, null);
            case NEIGHBOUR_ADDED ->
                    publish(OverlayEvent.Type.NEIGHBOUR_ADDED, e.node(), e.peer(), null, null, null, null, null);
            case NEIGHBOUR_REMOVED ->
                    publish(OverlayEvent.Type.NEIGHBOUR_REMOVED, e.node(), e.peer(), null, null, null, null, null);
            case ROUTES_CHANGED -> {
                if (e.node().equals(view.nodes().self().name())) {
                    diffRoutes();
                }
            }
        }
    }

    private void diffRoutes() {
        if (!view.nodes().self().isRunning()) {
            return;
        }
        Map<String, List<String>> now = view.routeSignature(view.snapshot());
        Map<String, List<String>> before = routes == null ? Map.of() : routes;
        routes = now;
        for (Map.Entry<String, List<String>> r : now.entrySet()) {
            List<String> old = before.getOrDefault(r.getKey(), List.of());
            if (!old.equals(r.getValue())) {
                String[] key = r.getKey().split(" ");
                publish(OverlayEvent.Type.REROUTE, view.nodes().self().name(), null, key[0],
                        RoutingMetric.valueOf(key[1]), old, r.getValue(), null);
            }
        }
    }

    /** Records an event of a link between two remote nodes, seen in the database. */
    public void remoteLink(boolean up, String a, String b) {
        thread.execute(() -> publish(up ? OverlayEvent.Type.LINK_UP : OverlayEvent.Type.LINK_DOWN, a, b, null, null,
                null, null, "seen in the link-state database"));
    }

    /** Records an impairment change made through the API. */
    public void impairment(String link, String detail) {
        thread.execute(() -> publish(OverlayEvent.Type.IMPAIRMENT, null, null, null, null, null, null,
                link + ": " + detail));
    }

    private void publish(OverlayEvent.Type type, String node, String peer, String destination, RoutingMetric metric,
            List<String> oldPath, List<String> newPath, String detail) {
        OverlayEvent event = new OverlayEvent(nextId++, Instant.now(), type, node, peer, destination, metric, oldPath,
                newPath, detail);
        synchronized (log) {
            log.addLast(event);
            while (log.size() > capacity) {
                log.removeFirst();
            }
        }
        for (SseEmitter s : subscribers) {
            send(s, event);
        }
    }

    /** The events kept, oldest first, after the given id (0 for all). */
    public List<OverlayEvent> recent(long afterId) {
        synchronized (log) {
            List<OverlayEvent> out = new ArrayList<>();
            for (OverlayEvent e : log) {
                if (e.id() > afterId) {
                    out.add(e);
                }
            }
            return out;
        }
    }

    /** A new subscriber: events after {@code lastEventId} (if any) first, then every new one. */
    public SseEmitter subscribe(Long lastEventId) {
        SseEmitter emitter = new SseEmitter(0L);
        emitter.onCompletion(() -> subscribers.remove(emitter));
        emitter.onTimeout(() -> subscribers.remove(emitter));
        emitter.onError(t -> subscribers.remove(emitter));
        thread.execute(() -> {
            try {
                emitter.send(SseEmitter.event().comment("hopwise events"));
            } catch (IOException | IllegalStateException e) {
                return;
            }
            if (lastEventId != null) {
                for (OverlayEvent e : recent(lastEventId)) {
                    send(emitter, e);
                }
            }
            subscribers.add(emitter);
        });
        return emitter;
    }

    private void send(SseEmitter emitter, OverlayEvent e) {
        try {
            emitter.send(SseEmitter.event().id(Long.toString(e.id())).name(e.type().name())
                    .data(e, MediaType.APPLICATION_JSON));
        } catch (IOException | IllegalStateException gone) {
            subscribers.remove(emitter);
        }
    }

    private void heartbeat() {
        for (SseEmitter s : subscribers) {
            try {
                s.send(SseEmitter.event().comment("heartbeat"));
            } catch (IOException | IllegalStateException gone) {
                subscribers.remove(s);
            }
        }
    }

    // Open streams would hold the web server's graceful shutdown for its whole timeout: they are ended
    // first, in the latest lifecycle phase to stop.
    private volatile boolean running;

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        subscribers.forEach(SseEmitter::complete);
        subscribers.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }

    @Override
    public void close() {
        listeners.forEach((node, l) -> node.removeListener(l));
        thread.shutdownNow();
        subscribers.forEach(SseEmitter::complete);
        subscribers.clear();
    }
}
