package net.hopwise.overlay.daemon;

import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeListener;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.node.Neighbour;

/**
 * Turns a node's events into log lines: links up and down, neighbours added, removed or moved to
 * another address, and reroutes ({@link RouteChanges}).
 *
 * <p>Events arrive on the node's event loop, which must never wait on a log that blocks (a stderr
 * pipe nobody reads): the loop only gathers what the line needs, and the executor writes it.
 */
final class EventLog implements NodeListener {
    private final OverlayNode node;
    private final Executor executor;
    private final DaemonLog log;
    private final RouteChanges routes;
    /** The last address logged per neighbour, so that a move names where it came from. */
    private final Map<String, InetSocketAddress> addresses = new ConcurrentHashMap<>();

    EventLog(OverlayNode node, Executor executor, DaemonLog log) {
        this.node = node;
        this.executor = executor;
        this.log = log;
        this.routes = new RouteChanges(node, executor, log);
        for (Neighbour n : node.neighbours()) {
            addresses.put(n.name(), n.address());
        }
    }

    @Override
    public void onEvent(NodeEvent event) {
        String peer = event.peer();
        switch (event.kind()) {
            case LINK_UP -> emit(Level.INFO, "link " + peer + " up" + at(addressOf(peer)));
            case LINK_DOWN -> emit(Level.WARNING, "link " + peer + " down");
            case ROUTES_CHANGED -> routes.changed();
            case NEIGHBOUR_ADDED -> {
                InetSocketAddress address = addressOf(peer);
                if (address != null) {
                    addresses.put(peer, address);
                }
                emit(Level.INFO, "neighbour " + peer + " added" + at(address));
            }
            case NEIGHBOUR_REMOVED -> {
                addresses.remove(peer);
                emit(Level.INFO, "neighbour " + peer + " removed");
            }
            case ADDRESS_CHANGED -> {
                InetSocketAddress now = addressOf(peer);
                InetSocketAddress was = now == null ? addresses.get(peer) : addresses.put(peer, now);
                emit(Level.INFO, "neighbour " + peer + " moved" + (was == null ? "" : " from " + Text.address(was))
                        + (now == null ? "" : " to " + Text.address(now)));
            }
            default -> emit(Level.INFO, event.kind().name().toLowerCase() + (peer == null ? "" : " " + peer));
        }
    }

    /** Compares the routes with those last logged, as a route event would. */
    void routesMayHaveChanged() {
        routes.changed();
    }

    private InetSocketAddress addressOf(String peer) {
        for (Neighbour n : node.neighbours()) {
            if (n.name().equals(peer)) {
                return n.address();
            }
        }
        return null;
    }

    private static String at(InetSocketAddress address) {
        return address == null ? "" : " at " + Text.address(address);
    }

    private void emit(Level level, String line) {
        try {
            executor.execute(() -> log.log(level, line));
        } catch (RejectedExecutionException stopping) {
            // The daemon is closing; the events of its last moment are not worth blocking the loop for.
        }
    }
}
