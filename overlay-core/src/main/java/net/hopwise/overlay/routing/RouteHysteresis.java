package net.hopwise.overlay.routing;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps a node's previous next hop for a destination while the path through it stays nearly as good
 * as the best, so that measurement noise between two paths of almost equal cost does not move
 * traffic back and forth. Applied to one metric of one computation, after the least-cost routes.
 *
 * <p><b>When a next hop is kept.</b> The previous next hop N for destination d is kept only while
 * <ol>
 *   <li>the link to N is still in the graph (both ends list it) and usable under the metric;
 *   <li>N is strictly downstream: N's least cost to d is strictly less than this node's least cost to d
 *       (the downstream-path condition of RFC 5286);
 *   <li>the cost through N, the link's cost plus N's least cost to d, is at most
 *       {@code best + max(absolute, fraction * best)} (see {@link RoutingConfig#routeChangeMarginFraction}).
 * </ol>
 * Otherwise the least-cost route is taken, in the same computation: a link that went down, or a
 * kept path that became worse than the margin allows, is left at once. A zero margin (both parts)
 * turns keeping off for the metric; HOPS never keeps: its costs are integers and the tie-breaking
 * already settles equal-hop alternatives, so a margin below one hop would keep nothing and one of a
 * hop or more would keep real detours.
 *
 * <p><b>Why no loop can form.</b> Let D(x) be the least cost from x to d in the database, the same
 * number on every node that holds the same database (costs are exact integers, see
 * {@link RoutingTable}). A packet for d at x goes either along x's least-cost route, to a y with
 * D(y) = D(x) - cost(x, y) &le; D(x), or to a kept N with D(N) &lt; D(x). Around a cycle D would
 * return to its start, so a cycle cannot contain a kept hop; and a cycle of least-cost hops alone is
 * impossible, because least-cost routes are closed under suffixes (each node's route continues its
 * first hop's route), so least-cost hops from x follow x's own route, a simple path ending at d.
 * Every node with a finite D(x) has a next hop with a finite D, so the packet, never revisiting a
 * node, reaches d. This holds whatever each node kept before, as long as the databases agree; while
 * they differ, during flooding, transient loops are possible as without hysteresis.
 *
 * <p><b>What is reported.</b> A kept route's path is this node, then N's least-cost route to d
 * (tie-broken as everywhere); its cost is the link's cost plus D(N). N's path cannot come back through
 * this node, since D(N) &lt; D(x). N may itself be keeping another next hop within its own margin, so
 * the packet's real path can differ from the reported one further along, never by more than each
 * node's margin. The extra work is one shortest-path computation per metric for each previous next
 * hop that the least-cost computation no longer chooses, and none while routes stay where they are.
 */
final class RouteHysteresis {
    private final int self;
    private final RouteLinks links;
    private final RouteWeights weights;
    private final long[] dist;
    private final double absoluteUnits;
    private final double fraction;
    private final Map<Integer, long[]> neighbourDist = new HashMap<>();
    private final Map<Integer, int[]> neighbourParent = new HashMap<>();

    private RouteHysteresis(int self, RouteLinks links, RouteWeights weights, long[] dist, double absoluteUnits,
            double fraction) {
        this.self = self;
        this.links = links;
        this.weights = weights;
        this.dist = dist;
        this.absoluteUnits = absoluteUnits;
        this.fraction = fraction;
    }

    /**
     * Replaces least-cost next hops by previous ones where the rules above keep them.
     *
     * @param previousHop [node]: the next hop the previous table used, as a number of this computation, -1 if none
     * @param nextHop [node]: the least-cost next hops, updated in place
     * @param routeUnits [node]: the least costs in weight units, updated in place to the chosen routes' costs
     * @return [neighbour number]: the parents of each kept neighbour's least-cost tree, null for the
     *     neighbours not kept for any destination; null if nothing was kept
     */
    static int[][] keep(RoutingMetric metric, RoutingConfig config, int self, RouteLinks links, RouteWeights weights,
            long[] dist, int[] previousHop, int[] nextHop, long[] routeUnits) {
        if (metric == RoutingMetric.HOPS) {
            return null;
        }
        double absolute = metric == RoutingMetric.LOSS ? config.routeChangeMarginLoss() : config.routeChangeMarginMillis();
        double fraction = config.routeChangeMarginFraction();
        if (absolute == 0 && fraction == 0) {
            return null;
        }
        RouteHysteresis h = new RouteHysteresis(self, links, weights, dist, weights.toUnits(absolute), fraction);
        return h.apply(previousHop, nextHop, routeUnits);
    }

    private int[][] apply(int[] previousHop, int[] nextHop, long[] routeUnits) {
        int n = dist.length;
        int[][] kept = null;
        for (int d = 0; d < n; d++) {
            int p = previousHop[d];
            if (p < 0 || p == nextHop[d] || d == self || dist[d] < 0) {
                continue;
            }
            int e = usableLink(p);
            if (e < 0) {
                continue;
            }
            long[] fromP = neighbourDist.computeIfAbsent(p, x -> RoutingTable.leastCosts(n, x, links, weights));
            if (fromP[d] < 0 || fromP[d] >= dist[d]) {
                continue;
            }
            long through = weights.weight[e] + fromP[d];
            // Exact integers below 2^52 convert to doubles exactly; the slack may be huge, so compare as doubles.
            if ((double) (through - dist[d]) > Math.max(absoluteUnits, fraction * dist[d])) {
                continue;
            }
            if (kept == null) {
                kept = new int[n][];
            }
            if (kept[p] == null) {
                kept[p] = neighbourParent.computeIfAbsent(p, x -> {
                    int[] parent = new int[n];
                    RoutingTable.chooseRoutes(x, links, weights, fromP, new int[n], parent);
                    return parent;
                });
            }
            nextHop[d] = p;
            routeUnits[d] = through;
        }
        return kept;
    }

    /** The first usable link from this node to {@code neighbour} (the one the shortest-path graph holds), or -1. */
    private int usableLink(int neighbour) {
        for (int i = links.outStart[self]; i < links.outStart[self + 1]; i++) {
            int e = links.outByFrom[i];
            if (links.to[e] == neighbour) {
                return weights.usable[e] ? e : -1;
            }
        }
        return -1;
    }
}
