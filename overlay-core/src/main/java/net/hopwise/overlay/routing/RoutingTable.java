package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * One node's routes under every metric, computed from a link-state database; immutable.
 *
 * <p><b>Graph.</b> The nodes are the origins in the database. There is a link u→v when u's
 * advertisement lists v and v's lists u (a link both ends see up), costed from u's advertisement.
 *
 * <p><b>Exact costs.</b> Each metric's link costs are turned into integers before the search, so
 * path costs are sums of integers, exact and independent of summation order: HOPS counts hops,
 * LATENCY sums microseconds, and LOSS and EXPECTED_LATENCY are rounded to a binary fixed point
 * chosen from the database: the finest grid on which no path sum can reach 2^52 (2^-32 ms for 1000
 * nodes with one-second links, far below anything measured). Because every node with the same
 * database computes the same integers, "equal cost" means the same thing on every node.
 *
 * <p><b>Which shortest path.</b> Dijkstra ({@link LeastCosts}) gives the least cost of every node. Among the
 * paths of least cost, the route is the one with the fewest hops, and among those the one whose
 * sequence of node ids, read from this node, is smallest (ids compared unsigned). That choice is
 * closed under taking prefixes and suffixes: the route of a node on our route to d is the rest of
 * our route to d. Nodes with the same database therefore forward every packet along the path its
 * first hop chose (no loops, even over zero-cost links; while databases differ, during flooding,
 * transient loops are possible as in any link-state protocol), and any node can compute another's
 * tree. The choice is made by one pass over the links that lie on least-cost paths, level by hop
 * count, ranking each level's paths by (rank of the path to the parent, id).
 *
 * <p><b>Kept routes.</b> Given the previous table, a route may keep its previous next hop instead of
 * the least-cost one, within the route-change margin and only towards a strictly closer neighbour;
 * see {@link RouteHysteresis} for the rules and why forwarding stays loop-free. Such a route is the
 * kept first hop followed by that neighbour's least-cost route, and its cost is that path's cost.
 */
final class RoutingTable {
    private static final RoutingMetric[] METRICS = RoutingMetric.all();

    private final int self;
    private final NodeId[] nodes;
    private final NodeIndex index;
    /** [metric][node]: the number of the neighbour to send to, -1 if none. */
    private final int[][] nextHop;
    /** [metric][node]: the node before it on the route, -1 for this node and the unreachable. */
    private final int[][] parent;
    /** [metric][node]: the route's cost in the metric's unit, +Infinity if unreachable. */
    private final double[][] cost;
    /**
     * [metric][neighbour]: for each previous next hop kept by {@link RouteHysteresis}, the parents of
     * its own least-cost tree, which the kept routes follow after the first hop; null where none is kept.
     */
    private final int[][][] keptTrees;
    /** [metric][node]: whether the route is a kept one; null where none is kept. */
    private final boolean[][] kept;
    /**
     * The advertisements the table was computed from (sorted by origin), kept so that trees from other
     * sources use the same snapshot; empty for selfOnly. The graph and its weights are rebuilt from
     * them when a tree is first asked for, not kept: most nodes never ask (only modules such as
     * multicast do), and a table's arrays of links and weights, per metric, were most of the routing's
     * memory in a 50-node overlay.
     */
    private final LinkStateAdvertisement[] ads;
    private final RoutingConfig config;
    /** Built on the first tree asked for; racy but idempotent, and its fields are final. */
    private RouteLinks links;
    private final RouteWeights[] weights = new RouteWeights[METRICS.length];

    private RoutingTable(int self, NodeId[] nodes, int[][] nextHop, int[][] parent, double[][] cost, int[][][] keptTrees,
            boolean[][] kept, LinkStateAdvertisement[] ads, RoutingConfig config) {
        this.self = self;
        this.nodes = nodes;
        this.index = new NodeIndex(nodes);
        this.nextHop = nextHop;
        this.parent = parent;
        this.cost = cost;
        this.keptTrees = keptTrees;
        this.kept = kept;
        this.ads = ads;
        this.config = config;
    }

    /** The table of a node that knows no other node. */
    static RoutingTable selfOnly(NodeId self) {
        int m = METRICS.length;
        int[][] none = new int[m][];
        double[][] zero = new double[m][];
        for (int i = 0; i < m; i++) {
            none[i] = new int[] {-1};
            zero[i] = new double[] {0.0};
        }
        return new RoutingTable(0, new NodeId[] {self}, none, none, zero, new int[m][][], new boolean[m][],
                new LinkStateAdvertisement[0], null);
    }

    /** Least-cost routes from {@code self} over the links in {@code advertisements}, which must include self's own. */
    static RoutingTable compute(NodeId self, Collection<LinkStateAdvertisement> advertisements, RoutingConfig config) {
        return compute(self, advertisements, config, null);
    }

    /**
     * Routes from {@code self} over the links in {@code advertisements}, which must include self's own:
     * the least-cost routes, except that a next hop of {@code previous} (null: none) is kept where
     * {@link RouteHysteresis} allows.
     */
    static RoutingTable compute(NodeId self, Collection<LinkStateAdvertisement> advertisements, RoutingConfig config,
            RoutingTable previous) {
        LinkStateAdvertisement[] ads = advertisements.toArray(new LinkStateAdvertisement[0]);
        NodeId[] nodes = new NodeId[ads.length];
        // Numbers follow id order, so comparing numbers compares ids; sorting is a no-op for a database.
        Arrays.sort(ads, (a, b) -> a.origin().compareTo(b.origin()));
        for (int i = 0; i < ads.length; i++) {
            nodes[i] = ads[i].origin();
        }
        NodeIndex index = new NodeIndex(nodes);
        int s = index.numberOf(self.value());
        if (s < 0) {
            throw new IllegalArgumentException("the database lacks the node's own advertisement");
        }
        RouteLinks links = RouteLinks.bidirectional(ads, index);
        int n = nodes.length;
        int[][] nextHop = new int[METRICS.length][];
        int[][] parent = new int[METRICS.length][];
        double[][] cost = new double[METRICS.length][];
        int[][][] keptTrees = new int[METRICS.length][][];
        boolean[][] kept = new boolean[METRICS.length][];
        for (RoutingMetric metric : METRICS) {
            int m = metric.ordinal();
            RouteWeights w = RouteWeights.of(metric, links, n, config);
            long[] dist = leastCosts(n, s, links, w);
            nextHop[m] = new int[n];
            parent[m] = new int[n];
            cost[m] = new double[n];
            chooseRoutes(s, links, w, dist, nextHop[m], parent[m]);
            long[] routeUnits = dist.clone();
            if (previous != null) {
                int[] leastCostHop = nextHop[m].clone();
                keptTrees[m] = RouteHysteresis.keep(metric, config, s, links, w, dist,
                        previous.nextHops(metric, nodes, index), nextHop[m], routeUnits);
                if (keptTrees[m] != null) {
                    kept[m] = new boolean[n];
                    for (int v = 0; v < n; v++) {
                        kept[m][v] = nextHop[m][v] != leastCostHop[v];
                    }
                }
            }
            for (int v = 0; v < n; v++) {
                cost[m][v] = v == s || parent[m][v] >= 0 ? w.toCost(routeUnits[v]) : Double.POSITIVE_INFINITY;
            }
        }
        return new RoutingTable(s, nodes, nextHop, parent, cost, keptTrees, kept, ads, config);
    }

    /** [node of {@code nodes}]: this table's next hop to it, as a number in {@code index}; -1 if none or not there. */
    private int[] nextHops(RoutingMetric metric, NodeId[] others, NodeIndex othersIndex) {
        if (Arrays.equals(nodes, others)) {
            // The same nodes numbered the same: the numbers carry over (the common case, costs changed).
            return nextHop[metric.ordinal()].clone();
        }
        int[] hops = new int[others.length];
        for (int v = 0; v < others.length; v++) {
            NodeId hop = nextHop(others[v], metric);
            hops[v] = hop == null ? -1 : othersIndex.numberOf(hop.value());
        }
        return hops;
    }

    /** Least cost from s to every node in integer weight units, -1 where unreachable. */
    static long[] leastCosts(int n, int s, RouteLinks links, RouteWeights w) {
        return LeastCosts.from(n, s, links, w);
    }

    /** Fills next hops and parents with the tie-broken routes (see the class comment). */
    static void chooseRoutes(int s, RouteLinks links, RouteWeights w, long[] dist, int[] nextHop, int[] parent) {
        int n = dist.length;
        Arrays.fill(nextHop, -1);
        Arrays.fill(parent, -1);
        int[] hops = new int[n];
        Arrays.fill(hops, -1);
        int[] order = new int[n];
        int tail = 0;
        hops[s] = 0;
        order[tail++] = s;
        for (int head = 0; head < tail; head++) {
            int u = order[head];
            for (int i = links.outStart[u]; i < links.outStart[u + 1]; i++) {
                int e = links.outByFrom[i];
                int v = links.to[e];
                if (hops[v] < 0 && onLeastCostPath(e, links, w, dist)) {
                    hops[v] = hops[u] + 1;
                    order[tail++] = v;
                }
            }
        }
        int[] rank = new int[n];
        for (int levelStart = 1; levelStart < tail; ) {
            int level = hops[order[levelStart]];
            int levelEnd = levelStart;
            while (levelEnd < tail && hops[order[levelEnd]] == level) {
                levelEnd++;
            }
            long[] keys = new long[levelEnd - levelStart];
            for (int i = levelStart; i < levelEnd; i++) {
                int v = order[i];
                int best = -1;
                for (int j = links.inStart[v]; j < links.inStart[v + 1]; j++) {
                    int e = links.inByTo[j];
                    int u = links.from[e];
                    if (hops[u] == level - 1 && onLeastCostPath(e, links, w, dist) && (best < 0 || rank[u] < rank[best])) {
                        best = u;
                    }
                }
                parent[v] = best;
                nextHop[v] = level == 1 ? v : nextHop[best];
                keys[i - levelStart] = ((long) rank[best] << 32) | v;
            }
            Arrays.sort(keys);
            for (int r = 0; r < keys.length; r++) {
                rank[(int) keys[r]] = r;
            }
            levelStart = levelEnd;
        }
    }

    private static boolean onLeastCostPath(int e, RouteLinks links, RouteWeights w, long[] dist) {
        long du = dist[links.from[e]];
        return w.usable[e] && du >= 0 && du + w.weight[e] == dist[links.to[e]];
    }

    /**
     * The least-cost tree from {@code source} over this table's snapshot of the graph, tie-broken as
     * this node's own routes are (see the class comment), as each reached node's parent with the
     * source mapped to itself; empty if the source is not in the snapshot. From this node it is the
     * tree its least-cost routes form, before any route is kept by {@link RouteHysteresis}.
     */
    Map<NodeId, NodeId> tree(NodeId source, RoutingMetric metric) {
        int s = index.numberOf(source.value());
        if (s < 0) {
            return Map.of();
        }
        int m = metric.ordinal();
        int n = nodes.length;
        int[] parents = parent[m];
        if (s != self) {
            RouteLinks graph = links;
            if (graph == null) {
                graph = RouteLinks.bidirectional(ads, index);
                links = graph;
            }
            RouteWeights w = weights[m];
            if (w == null) {
                w = RouteWeights.of(metric, graph, n, config);
                weights[m] = w;
            }
            long[] dist = leastCosts(n, s, graph, w);
            parents = new int[n];
            chooseRoutes(s, graph, w, dist, new int[n], parents);
        }
        return new ParentTree(nodes, index, s, parents);
    }

    NodeId nextHop(NodeId destination, RoutingMetric metric) {
        int v = index.numberOf(destination.value());
        if (v < 0) {
            return null;
        }
        int hop = nextHop[metric.ordinal()][v];
        return hop < 0 ? null : nodes[hop];
    }

    List<NodeId> path(NodeId destination, RoutingMetric metric) {
        int v = index.numberOf(destination.value());
        if (v < 0) {
            return List.of();
        }
        if (v == self) {
            return List.of(nodes[self]);
        }
        int m = metric.ordinal();
        if (nextHop[m][v] < 0) {
            return List.of();
        }
        List<NodeId> path = new ArrayList<>();
        for (int x = v; ; x = before(m, v, x)) {
            path.add(nodes[x]);
            if (x == self) {
                break;
            }
        }
        Collections.reverse(path);
        return Collections.unmodifiableList(path);
    }

    /** The node before {@code x} on the route to {@code destination}, which passes through x and is reachable. */
    private int before(int m, int destination, int x) {
        if (kept[m] == null || !kept[m][destination]) {
            return parent[m][x];
        }
        int hop = nextHop[m][destination];
        return x == hop ? self : keptTrees[m][hop][x];
    }

    double pathCost(NodeId destination, RoutingMetric metric) {
        int v = index.numberOf(destination.value());
        return v < 0 ? Double.POSITIVE_INFINITY : cost[metric.ordinal()][v];
    }

    /** Whether this computation included {@code node}, and no path reached it (the links of a path count under every metric). */
    boolean knownUnreachable(NodeId node) {
        int v = index.numberOf(node.value());
        return v >= 0 && v != self && parent[RoutingMetric.HOPS.ordinal()][v] < 0;
    }

    /** Whether both tables reach the same nodes by the same paths under every metric. */
    boolean sameRoutesAs(RoutingTable other) {
        boolean sameNodes = self == other.self && Arrays.equals(nodes, other.nodes);
        for (RoutingMetric metric : METRICS) {
            int m = metric.ordinal();
            if (sameNodes && kept[m] == null && other.kept[m] == null) {
                // Each route is its chain of parents, so with the same numbering equal parents are equal
                // routes, and a parent that differs is a route that differs or reaches no longer.
                if (!Arrays.equals(parent[m], other.parent[m])) {
                    return false;
                }
                continue;
            }
            if (reachable(m) != other.reachable(m)) {
                return false;
            }
            for (int v = 0; v < nodes.length; v++) {
                if (nextHop[m][v] < 0) {
                    continue;
                }
                int o = other.index.numberOf(nodes[v].value());
                if (o < 0 || other.nextHop[m][o] < 0 || !sameRoute(m, v, other, o)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Walks both routes back from the destination; both are simple paths ending at their table's node. */
    private boolean sameRoute(int m, int v, RoutingTable other, int o) {
        int x = v;
        int y = o;
        while (nodes[x].equals(other.nodes[y])) {
            if (x == self || y == other.self) {
                return x == self && y == other.self;
            }
            x = before(m, v, x);
            y = other.before(m, o, y);
        }
        return false;
    }

    private int reachable(int m) {
        int count = 0;
        for (int hop : nextHop[m]) {
            if (hop >= 0) {
                count++;
            }
        }
        return count;
    }

}
