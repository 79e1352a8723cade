package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.hopwise.overlay.NodeId;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm;
import org.jgrapht.alg.shortestpath.IntVertexDijkstraShortestPath;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

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
 * <p><b>Which shortest path.</b> JGraphT's Dijkstra gives the least cost of every node. Among the
 * paths of least cost, the route is the one with the fewest hops, and among those the one whose
 * sequence of node ids, read from this node, is smallest (ids compared unsigned). That choice is
 * closed under taking prefixes and suffixes: the route of a node on our route to d is the rest of
 * our route to d. Nodes with the same database therefore forward every packet along the path its
 * first hop chose (no loops, even over zero-cost links; while databases differ, during flooding,
 * transient loops are possible as in any link-state protocol), and any node can compute another's
 * tree. The choice is made by one pass over the links that lie on least-cost paths, level by hop
 * count, ranking each level's paths by (rank of the path to the parent, id).
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

    private RoutingTable(int self, NodeId[] nodes, int[][] nextHop, int[][] parent, double[][] cost) {
        this.self = self;
        this.nodes = nodes;
        this.index = new NodeIndex(nodes);
        this.nextHop = nextHop;
        this.parent = parent;
        this.cost = cost;
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
        return new RoutingTable(0, new NodeId[] {self}, none, none, zero);
    }

    /** Routes from {@code self} over the links in {@code advertisements}, which must include self's own. */
    static RoutingTable compute(NodeId self, Collection<LinkStateAdvertisement> advertisements, RoutingConfig config) {
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
        Links links = Links.bidirectional(ads, index);
        int n = nodes.length;
        int[][] nextHop = new int[METRICS.length][];
        int[][] parent = new int[METRICS.length][];
        double[][] cost = new double[METRICS.length][];
        for (RoutingMetric metric : METRICS) {
            int m = metric.ordinal();
            Weights w = Weights.of(metric, links, n, config);
            long[] dist = leastCosts(n, s, links, w);
            nextHop[m] = new int[n];
            parent[m] = new int[n];
            cost[m] = new double[n];
            chooseRoutes(s, links, w, dist, nextHop[m], parent[m]);
            for (int v = 0; v < n; v++) {
                cost[m][v] = v == s || parent[m][v] >= 0 ? w.toCost(dist[v]) : Double.POSITIVE_INFINITY;
            }
        }
        return new RoutingTable(s, nodes, nextHop, parent, cost);
    }

    /** Least cost from s to every node in integer weight units, -1 where unreachable. */
    private static long[] leastCosts(int n, int s, Links links, Weights w) {
        SimpleDirectedWeightedGraph<Integer, DefaultWeightedEdge> graph =
                new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
        for (int v = 0; v < n; v++) {
            graph.addVertex(v);
        }
        for (int e = 0; e < links.count(); e++) {
            if (w.usable[e]) {
                DefaultWeightedEdge edge = graph.addEdge(links.from[e], links.to[e]);
                graph.setEdgeWeight(edge, w.weight[e]);
            }
        }
        ShortestPathAlgorithm.SingleSourcePaths<Integer, DefaultWeightedEdge> paths =
                new IntVertexDijkstraShortestPath<>(graph).getPaths(s);
        long[] dist = new long[n];
        for (int v = 0; v < n; v++) {
            double d = paths.getWeight(v);
            // Weights are integers below 2^52 on every path, so the doubles are exact.
            dist[v] = Double.isInfinite(d) ? -1 : (long) d;
        }
        return dist;
    }

    /** Fills next hops and parents with the tie-broken routes (see the class comment). */
    private static void chooseRoutes(int s, Links links, Weights w, long[] dist, int[] nextHop, int[] parent) {
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

    private static boolean onLeastCostPath(int e, Links links, Weights w, long[] dist) {
        long du = dist[links.from[e]];
        return w.usable[e] && du >= 0 && du + w.weight[e] == dist[links.to[e]];
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
        int[] up = parent[metric.ordinal()];
        if (up[v] < 0) {
            return List.of();
        }
        List<NodeId> path = new ArrayList<>();
        for (int x = v; x >= 0; x = up[x]) {
            path.add(nodes[x]);
        }
        Collections.reverse(path);
        return Collections.unmodifiableList(path);
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
        for (RoutingMetric metric : METRICS) {
            int m = metric.ordinal();
            if (reachable(m) != other.reachable(m)) {
                return false;
            }
            for (int v = 0; v < nodes.length; v++) {
                if (parent[m][v] < 0) {
                    continue;
                }
                int o = other.index.numberOf(nodes[v].value());
                if (o < 0) {
                    return false;
                }
                int op = other.parent[m][o];
                if (op < 0 || !other.nodes[op].equals(nodes[parent[m][v]])) {
                    return false;
                }
            }
        }
        return true;
    }

    private int reachable(int m) {
        int count = 0;
        for (int p : parent[m]) {
            if (p >= 0) {
                count++;
            }
        }
        return count;
    }

    /** The links routing may use, numbered, with adjacency in both directions. */
    private static final class Links {
        final int[] from;
        final int[] to;
        final LinkCost[] costs;
        final int[] outStart;
        final int[] outByFrom;
        final int[] inStart;
        final int[] inByTo;

        private Links(int n, int[] from, int[] to, LinkCost[] costs) {
            this.from = from;
            this.to = to;
            this.costs = costs;
            outStart = new int[n + 1];
            inStart = new int[n + 1];
            outByFrom = bucket(from, outStart);
            inByTo = bucket(to, inStart);
        }

        int count() {
            return from.length;
        }

        /** Links u→v where u lists v and v lists u. */
        static Links bidirectional(LinkStateAdvertisement[] ads, NodeIndex index) {
            int n = ads.length;
            Set<Long> listed = new HashSet<>();
            for (int u = 0; u < n; u++) {
                for (LinkStateAdvertisement.Link link : ads[u].links()) {
                    int v = index.numberOf(link.neighbour().value());
                    if (v >= 0) {
                        listed.add(((long) u << 32) | v);
                    }
                }
            }
            int[] from = new int[listed.size()];
            int[] to = new int[listed.size()];
            LinkCost[] costs = new LinkCost[listed.size()];
            int count = 0;
            for (int u = 0; u < n; u++) {
                for (LinkStateAdvertisement.Link link : ads[u].links()) {
                    int v = index.numberOf(link.neighbour().value());
                    if (v >= 0 && listed.contains(((long) v << 32) | u)) {
                        from[count] = u;
                        to[count] = v;
                        costs[count] = link.cost();
                        count++;
                    }
                }
            }
            return new Links(n, Arrays.copyOf(from, count), Arrays.copyOf(to, count), Arrays.copyOf(costs, count));
        }

        /** Counting sort of link numbers by {@code end}; {@code start} receives the bucket offsets. */
        private static int[] bucket(int[] end, int[] start) {
            for (int v : end) {
                start[v + 1]++;
            }
            for (int v = 0; v + 1 < start.length; v++) {
                start[v + 1] += start[v];
            }
            int[] fill = Arrays.copyOf(start, start.length);
            int[] byEnd = new int[end.length];
            for (int e = 0; e < end.length; e++) {
                byEnd[fill[end[e]]++] = e;
            }
            return byEnd;
        }
    }

    /** One metric's link costs as exact integers, and the way back to the metric's unit. */
    private static final class Weights {
        final long[] weight;
        final boolean[] usable;
        private final RoutingMetric metric;
        /** Weight units per metric unit: 2^scale, except LATENCY, weighed in microseconds. */
        private final int scale;

        private Weights(RoutingMetric metric, long[] weight, boolean[] usable, int scale) {
            this.metric = metric;
            this.weight = weight;
            this.usable = usable;
            this.scale = scale;
        }

        static Weights of(RoutingMetric metric, Links links, int n, RoutingConfig config) {
            int count = links.count();
            long[] weight = new long[count];
            boolean[] usable = new boolean[count];
            switch (metric) {
                case HOPS -> {
                    Arrays.fill(weight, 1);
                    Arrays.fill(usable, true);
                    return new Weights(metric, weight, usable, 0);
                }
                case LATENCY -> {
                    for (int e = 0; e < count; e++) {
                        weight[e] = links.costs[e].latencyMicros();
                        usable[e] = true;
                    }
                    return new Weights(metric, weight, usable, 0);
                }
                default -> {
                    double[] real = new double[count];
                    double max = 0;
                    for (int e = 0; e < count; e++) {
                        real[e] = metric.linkCost(links.costs[e], config);
                        // A link that loses everything has infinite LOSS cost: no route uses it.
                        usable[e] = !Double.isInfinite(real[e]);
                        if (usable[e]) {
                            max = Math.max(max, real[e]);
                        }
                    }
                    // The finest binary grid on which a path of n-1 links stays below 2^52.
                    int scale = max > 0 ? 51 - Math.getExponent(max * Math.max(1, n - 1)) : 0;
                    for (int e = 0; e < count; e++) {
                        if (usable[e]) {
                            weight[e] = (long) Math.rint(Math.scalb(real[e], scale));
                        }
                    }
                    return new Weights(metric, weight, usable, scale);
                }
            }
        }

        double toCost(long units) {
            return metric == RoutingMetric.LATENCY ? units / 1000.0 : Math.scalb((double) units, -scale);
        }
    }
}
