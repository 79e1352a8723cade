package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import net.hopwise.overlay.NodeId;

/**
 * Shortest paths the slow, obvious way (Floyd-Warshall over every pair), to check a router's routes
 * against: costs, validity of paths, agreement between nodes, and for HOPS and LATENCY (integer
 * costs, so ties are exact here too) the exact tie-breaking rule.
 */
final class BruteForceRoutes {
    private static final double TOLERANCE = 1e-9;

    private final RoutingConfig config;
    private final List<NodeId> nodes = new ArrayList<>();
    private final Map<NodeId, Integer> numbers = new HashMap<>();
    /** [u][v]: the cost u advertises for a link both u and v list, or null. */
    private final LinkCost[][] links;

    BruteForceRoutes(Collection<LinkStateAdvertisement> advertisements, RoutingConfig config) {
        this.config = config;
        Map<NodeId, LinkStateAdvertisement> byOrigin = new HashMap<>();
        for (LinkStateAdvertisement a : advertisements) {
            byOrigin.put(a.origin(), a);
            nodes.add(a.origin());
        }
        nodes.sort(NodeId::compareTo);
        for (int i = 0; i < nodes.size(); i++) {
            numbers.put(nodes.get(i), i);
        }
        int n = nodes.size();
        links = new LinkCost[n][n];
        for (LinkStateAdvertisement a : advertisements) {
            for (LinkStateAdvertisement.Link l : a.links()) {
                LinkStateAdvertisement back = byOrigin.get(l.neighbour());
                if (back != null && back.costTo(a.origin()) != null) {
                    links[numbers.get(a.origin())][numbers.get(l.neighbour())] = l.cost();
                }
            }
        }
    }

    double[][] distances(RoutingMetric metric) {
        int n = nodes.size();
        double[][] d = new double[n][n];
        for (int u = 0; u < n; u++) {
            for (int v = 0; v < n; v++) {
                d[u][v] = u == v ? 0 : links[u][v] == null ? Double.POSITIVE_INFINITY : metric.linkCost(links[u][v], config);
            }
        }
        for (int k = 0; k < n; k++) {
            for (int u = 0; u < n; u++) {
                for (int v = 0; v < n; v++) {
                    if (d[u][k] + d[k][v] < d[u][v]) {
                        d[u][v] = d[u][k] + d[k][v];
                    }
                }
            }
        }
        return d;
    }

    private final Map<RoutingMetric, long[][][]> exact = new HashMap<>();
    private boolean exactRoutes = true;

    /** For HOPS and LATENCY: exact [cost, hops][u][v], least cost first, then fewest hops. */
    private long[][][] exactCostsAndHops(RoutingMetric metric) {
        return exact.computeIfAbsent(metric, m -> {
            int n = nodes.size();
            long[][] c = new long[n][n];
            long[][] h = new long[n][n];
            for (int u = 0; u < n; u++) {
                for (int v = 0; v < n; v++) {
                    if (u == v) {
                        c[u][v] = 0;
                        h[u][v] = 0;
                    } else if (links[u][v] != null) {
                        c[u][v] = exactWeight(m, links[u][v]);
                        h[u][v] = 1;
                    } else {
                        c[u][v] = UNREACHABLE;
                        h[u][v] = UNREACHABLE;
                    }
                }
            }
            for (int k = 0; k < n; k++) {
                for (int u = 0; u < n; u++) {
                    for (int v = 0; v < n; v++) {
                        long cc = c[u][k] + c[k][v];
                        long hh = h[u][k] + h[k][v];
                        if (cc < c[u][v] || (cc == c[u][v] && hh < h[u][v])) {
                            c[u][v] = cc;
                            h[u][v] = hh;
                        }
                    }
                }
            }
            return new long[][][] {c, h};
        });
    }

    private static final long UNREACHABLE = Long.MAX_VALUE / 4;

    private static long exactWeight(RoutingMetric metric, LinkCost cost) {
        return metric == RoutingMetric.HOPS ? 1 : cost.latencyMicros();
    }

    /** For HOPS and LATENCY: the exact least cost (hops, microseconds) from one node to another, -1 if unreachable. */
    long exactLeastCost(NodeId from, NodeId to, RoutingMetric metric) {
        long c = exactCostsAndHops(metric)[0][numbers.get(from)][numbers.get(to)];
        return c >= UNREACHABLE ? -1 : c;
    }

    /** For HOPS and LATENCY: the exact cost of the link from one node to another, -1 if routing may not use it. */
    long exactLinkCost(NodeId from, NodeId to, RoutingMetric metric) {
        LinkCost c = links[numbers.get(from)][numbers.get(to)];
        return c == null ? -1 : exactWeight(metric, c);
    }

    /** The cost of the link from one node to another in the metric's unit, or null if routing may not use it. */
    LinkCost link(NodeId from, NodeId to) {
        return links[numbers.get(from)][numbers.get(to)];
    }

    /** The nodes, in id order. */
    List<NodeId> nodes() {
        return nodes;
    }

    /** For HOPS and LATENCY: the least-cost, then fewest-hop, then smallest-id-sequence path, or null. */
    List<NodeId> preferredPath(NodeId from, NodeId to, RoutingMetric metric) {
        int n = nodes.size();
        long[][][] ch = exactCostsAndHops(metric);
        long[][] c = ch[0];
        long[][] h = ch[1];
        long inf = UNREACHABLE;
        int s = numbers.get(from);
        int d = numbers.get(to);
        if (c[s][d] >= inf) {
            return null;
        }
        List<NodeId> path = new ArrayList<>(List.of(from));
        for (int x = s; x != d; ) {
            int next = -1;
            // Numbers follow unsigned id order, so the first fit is the smallest id.
            for (int y = 0; y < n && next < 0; y++) {
                if (links[x][y] != null) {
                    long w = exactWeight(metric, links[x][y]);
                    if (w + c[y][d] == c[x][d] && 1 + h[y][d] == h[x][d]) {
                        next = y;
                    }
                }
            }
            x = next;
            path.add(nodes.get(x));
        }
        return path;
    }

    /** Checks every route of every router given against brute force: routers without history take least-cost routes. */
    void verify(Function<NodeId, Router> routers) {
        verify(routers, true);
    }

    /**
     * Checks every route of routers that may have kept previous next hops: each route is a valid path
     * whose cost is within the route-change margin of the least cost, HOPS routes exactly as without
     * history, and a route whose cost is the least follows its next hop's route.
     */
    void verifyWithinMargin(Function<NodeId, Router> routers) {
        verify(routers, false);
    }

    private void verify(Function<NodeId, Router> routers, boolean exact) {
        this.exactRoutes = exact;
        for (RoutingMetric metric : RoutingMetric.values()) {
            double[][] d = distances(metric);
            for (NodeId s : nodes) {
                Router r = routers.apply(s);
                if (r == null) {
                    continue;
                }
                for (NodeId t : nodes) {
                    verifyRoute(routers, r, s, t, metric, d[numbers.get(s)][numbers.get(t)]);
                }
            }
        }
    }

    private void verifyRoute(Function<NodeId, Router> routers, Router r, NodeId s, NodeId t, RoutingMetric metric, double expected) {
        String what = metric + " route " + s + " -> " + t;
        List<NodeId> path = r.path(t, metric);
        if (s.equals(t)) {
            assertThat(r.pathCost(t, metric)).as(what).isZero();
            assertThat(path).as(what).containsExactly(s);
            assertThat(r.nextHop(t, metric)).as(what).isNull();
            return;
        }
        if (Double.isInfinite(expected)) {
            assertThat(r.pathCost(t, metric)).as(what).isInfinite();
            assertThat(path).as(what).isEmpty();
            assertThat(r.nextHop(t, metric)).as(what).isNull();
            return;
        }
        double cost = r.pathCost(t, metric);
        boolean leastCost = exactRoutes || metric == RoutingMetric.HOPS;
        if (leastCost) {
            assertThat(cost).as(what).isCloseTo(expected, within(TOLERANCE));
        } else {
            double margin = Math.max(metric == RoutingMetric.LOSS ? config.routeChangeMarginLoss()
                    : config.routeChangeMarginMillis(), config.routeChangeMarginFraction() * expected);
            assertThat(cost).as(what + ": within the margin").isBetween(expected - TOLERANCE, expected + margin + TOLERANCE);
        }
        assertThat(path).as(what).hasSizeGreaterThan(1);
        assertThat(path.get(0)).as(what).isEqualTo(s);
        assertThat(path.get(path.size() - 1)).as(what).isEqualTo(t);
        double sum = 0;
        for (int i = 0; i + 1 < path.size(); i++) {
            LinkCost c = links[numbers.get(path.get(i))][numbers.get(path.get(i + 1))];
            assertThat(c).as(what + ": link " + path.get(i) + " -> " + path.get(i + 1) + " in " + path).isNotNull();
            sum += metric.linkCost(c, config);
        }
        assertThat(sum).as(what + ": cost of " + path).isCloseTo(cost, within(leastCost ? TOLERANCE : 1e-6));
        assertThat(r.nextHop(t, metric)).as(what).isEqualTo(path.get(1));
        if (!leastCost) {
            return;
        }
        Router next = routers.apply(path.get(1));
        if (next != null) {
            assertThat(next.path(t, metric)).as(what + ": the next hop continues along the same path").isEqualTo(path.subList(1, path.size()));
        }
        if (metric == RoutingMetric.HOPS || metric == RoutingMetric.LATENCY) {
            assertThat(path).as(what + ": tie-breaking").isEqualTo(preferredPath(s, t, metric));
        }
    }
}
