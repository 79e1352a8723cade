package net.hopwise.voip.relay;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeListener;
import net.hopwise.overlay.OverlayNode;

/**
 * Whether a relay's node can route to its peers: a route under the metric its media flows use and
 * one under the metric its signalling sessions use. A relay that answers calls before that sends
 * its first INVITEs into "no route" (503) and its first media nowhere, which is what a script or an
 * operator waiting for READY must not see.
 */
public final class PeerRoutes {
    /** Longest wait between two looks at the routes, in case an event came before the listener. */
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private PeerRoutes() {}

    /** The peers that {@code node} has no route to yet, under either metric; empty when all are routable. */
    public static Set<String> missing(OverlayNode node, Collection<String> peers) {
        Set<String> media = node.reachableNodes(node.config().realTime().metric());
        Set<String> signalling = node.reachableNodes(node.config().defaultMetric());
        Set<String> missing = new TreeSet<>();
        for (String p : peers) {
            if (!media.contains(p) || !signalling.contains(p)) {
                missing.add(p);
            }
        }
        return missing;
    }

    /**
     * Waits until {@code node} has routes to every peer, for at most {@code timeout} (zero: look once);
     * returns the peers still without a route (empty: ready). Woken by the node's route and link events.
     */
    public static Set<String> await(OverlayNode node, Collection<String> peers, Duration timeout)
            throws InterruptedException {
        Semaphore changed = new Semaphore(0);
        NodeListener listener = e -> {
            if (e.kind() == NodeEvent.Kind.ROUTES_CHANGED || e.kind() == NodeEvent.Kind.LINK_UP) {
                changed.release();
            }
        };
        node.addListener(listener);
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Set<String> missing = missing(node, peers);
                long left = deadline - System.nanoTime();
                if (missing.isEmpty() || left <= 0) {
                    return missing;
                }
                changed.tryAcquire(Math.min(left, RECHECK_NANOS), TimeUnit.NANOSECONDS);
                changed.drainPermits();
            }
        } finally {
            node.removeListener(listener);
        }
    }
}
