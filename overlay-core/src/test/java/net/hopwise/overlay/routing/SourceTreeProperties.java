package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Shortest-path trees from any source agree with the routes every node computes, and with brute force. */
class SourceTreeProperties {
    private static final long MS = 1_000_000L;

    /** Every router of a random graph (one-sided and dangling claims mixed in) with the whole database, by name. */
    static Map<NodeId, Router> routersWithTheWholeDatabase(RandomTopology topology, RoutingConfig config,
            List<LinkStateAdvertisement> advertisements) {
        for (String name : topology.names()) {
            advertisements.add(topology.advertisement(name, 1));
        }
        Map<NodeId, Router> routers = new HashMap<>();
        for (String name : topology.names()) {
            NodeId self = NodeId.ofName(name);
            Router r = new Router(self, name, config, new CapturingOutput(), 1, 0);
            topology.claims().get(name).forEach((to, cost) -> r.neighbourUp(NodeId.ofName(to), cost, 0));
            List<LinkStateAdvertisement> others = new ArrayList<>(advertisements);
            others.removeIf(a -> a.origin().equals(self));
            NodeId anyNeighbour = NodeId.ofName(topology.claims().get(name).keySet().iterator().next());
            r.onUpdate(anyNeighbour, new LinkStateUpdate(others), 100 * MS);
            routers.put(self, r);
        }
        return routers;
    }

    /** The tree's branch from its root down to {@code node}, or null if the tree does not reach it. */
    static List<NodeId> branch(Map<NodeId, NodeId> tree, NodeId node) {
        if (!tree.containsKey(node)) {
            return null;
        }
        List<NodeId> branch = new ArrayList<>();
        for (NodeId x = node; ; x = tree.get(x)) {
            branch.add(x);
            assertThat(branch.size()).as("the tree has no cycle").isLessThanOrEqualTo(tree.size());
            if (tree.get(x).equals(x)) {
                break;
            }
        }
        Collections.reverse(branch);
        return branch;
    }

    /**
     * On graphs whose link costs are all distinct (no zero loss, latencies and losses drawn from wide
     * ranges, so no two paths cost the same), under every metric but HOPS, each branch of the tree from any
     * source is the one shortest path Floyd-Warshall finds, so the tree is exactly the union of the
     * brute-force shortest paths from the source.
     */
    @Property(tries = 100)
    void treesAreTheUnionOfTheUniqueShortestPaths(@ForAll @IntRange(min = 2, max = 16) int nodes, @ForAll long seed) {
        Random random = new Random(seed);
        RandomTopology shape = RandomTopology.generate(nodes, random, false);
        List<RandomTopology.Edge> edges = new ArrayList<>();
        Map<String, Map<String, LinkCost>> claims = new java.util.TreeMap<>();
        shape.names().forEach(n -> claims.put(n, new java.util.LinkedHashMap<>()));
        for (RandomTopology.Edge e : shape.edges()) {
            RandomTopology.Edge unique = new RandomTopology.Edge(e.a(), e.b(), uniqueCost(random), uniqueCost(random));
            edges.add(unique);
            claims.get(e.a()).put(e.b(), unique.ab());
            claims.get(e.b()).put(e.a(), unique.ba());
        }
        RandomTopology topology = new RandomTopology(shape.names(), edges, claims);
        RoutingConfig config = RoutingConfig.defaults();
        List<LinkStateAdvertisement> advertisements = new ArrayList<>();
        Map<NodeId, Router> routers = routersWithTheWholeDatabase(topology, config, advertisements);
        BruteForceRoutes brute = new BruteForceRoutes(advertisements, config);
        List<NodeId> ids = brute.nodes();
        Router viewer = routers.get(ids.get(random.nextInt(ids.size())));
        // HOPS ties wherever two paths have as many hops: its tie-breaking is checked exactly above.
        for (RoutingMetric metric : new RoutingMetric[] {RoutingMetric.LATENCY, RoutingMetric.LOSS, RoutingMetric.EXPECTED_LATENCY}) {
            double[][] d = brute.distances(metric);
            for (int s = 0; s < ids.size(); s++) {
                Map<NodeId, NodeId> tree = viewer.tree(ids.get(s), metric);
                for (int t = 0; t < ids.size(); t++) {
                    List<NodeId> expected = uniqueShortestPath(brute, metric, config, d, s, t);
                    assertThat(branch(tree, ids.get(t))).as(metric + " from " + ids.get(s) + " to " + ids.get(t)).isEqualTo(expected);
                }
            }
        }
    }

    /** Wide ranges and no zero loss: distinct costs under every metric, with overwhelming probability. */
    private static LinkCost uniqueCost(Random random) {
        return new LinkCost(1_000 + random.nextInt(200_000), 1 + random.nextInt(300_000));
    }

    /** Floyd-Warshall's shortest path, checking at every step that exactly one neighbour continues it; null if unreachable. */
    private static List<NodeId> uniqueShortestPath(BruteForceRoutes brute, RoutingMetric metric, RoutingConfig config,
            double[][] d, int s, int t) {
        if (Double.isInfinite(d[s][t])) {
            return null;
        }
        List<NodeId> ids = brute.nodes();
        List<NodeId> path = new ArrayList<>(List.of(ids.get(s)));
        for (int x = s; x != t; ) {
            int next = -1;
            int candidates = 0;
            for (int y = 0; y < ids.size(); y++) {
                LinkCost c = brute.link(ids.get(x), ids.get(y));
                if (c != null && Math.abs(metric.linkCost(c, config) + d[y][t] - d[x][t]) <= 1e-9 * Math.max(1, d[x][t])) {
                    next = y;
                    candidates++;
                }
            }
            assertThat(candidates).as("a shortest path continues (" + metric + ")").isPositive();
            // Costs drawn from wide ranges rarely tie, but they can (a sample of 16 nodes did, seed
            // 411624349388194782): a tie has no one shortest path to compare with, so the sample is
            // set aside rather than failed; the tie-breaking itself is checked by the properties above.
            net.jqwik.api.Assume.that(candidates == 1);
            x = next;
            path.add(ids.get(x));
        }
        return path;
    }

    /**
     * After a history of links coming up, costs changing and a link flapping under loss, with zero
     * route-change margins: at every node of any source's tree, under every metric, the next hop that
     * node computes for each node below it is its child towards it, which is what a packet forwarded
     * down the tree needs. With the default margins the same holds for HOPS, which never keeps a route.
     */
    @Property(tries = 30)
    void everyNodeOnATreeForwardsToItsChildAfterAnyHistory(@ForAll @IntRange(min = 2, max = 15) int nodes,
            @ForAll long seed, @ForAll boolean zeroMargins) {
        Random random = new Random(seed);
        RandomTopology topology = RandomTopology.generate(nodes, random, false);
        RoutingConfig config = zeroMargins ? RoutingConfig.builder().noRouteChangeMargin().build() : RoutingConfig.defaults();
        VirtualNetwork net = new VirtualNetwork(config, seed);
        net.lossRate = 0.1;
        net.jitterNanos = 20 * MS;
        for (int i = 0; i < nodes; i++) {
            net.add(topology.names().get(i), 1_000L * (i + 1));
        }
        List<Runnable> actions = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (RandomTopology.Edge e : topology.edges()) {
            net.connect(e.a(), e.b(), e.ab(), e.ba());
            for (int k = random.nextInt(3); k > 0; k--) {
                LinkCost changed = RandomTopology.cost(random);
                times.add((500 + random.nextInt(8_000)) * MS);
                actions.add(() -> net.router(e.a()).neighbourCostChanged(net.id(e.b()), changed, net.now()));
            }
        }
        RandomTopology.Edge flapping = topology.edges().get(random.nextInt(topology.edges().size()));
        long downAt = (1_000 + random.nextInt(5_000)) * MS;
        times.add(downAt);
        actions.add(() -> net.disconnect(flapping.a(), flapping.b()));
        times.add(downAt + random.nextInt(2_000) * MS);
        actions.add(() -> net.connect(flapping.a(), flapping.b(), flapping.ab(), flapping.ba()));
        Integer[] order = new Integer[times.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparing(times::get));
        for (int i : order) {
            net.runUntil(times.get(i));
            actions.get(i).run();
        }
        net.runUntil(12 * VirtualNetwork.SECOND);
        net.lossRate = 0;
        net.jitterNanos = 0;
        net.runFor(10 * VirtualNetwork.SECOND);

        Map<NodeId, Router> routers = new HashMap<>();
        net.hosts().forEach(h -> routers.put(h.id, h.router));
        Router viewer = net.hosts().get(random.nextInt(nodes)).router;
        for (RoutingMetric metric : zeroMargins ? RoutingMetric.values() : new RoutingMetric[] {RoutingMetric.HOPS}) {
            for (NodeId source : routers.keySet()) {
                Map<NodeId, NodeId> tree = viewer.tree(source, metric);
                if (metric == RoutingMetric.HOPS) {
                    // LOSS never uses a link that loses everything, so only HOPS reaches every node for sure.
                    assertThat(tree).as("every node reached: the overlay is connected").hasSize(nodes);
                }
                for (NodeId target : tree.keySet()) {
                    List<NodeId> branch = branch(tree, target);
                    for (int i = 0; i + 1 < branch.size(); i++) {
                        assertThat(routers.get(branch.get(i)).nextHop(target, metric))
                                .as(metric + " tree of " + source + ": next hop of " + branch.get(i) + " to " + target)
                                .isEqualTo(branch.get(i + 1));
                    }
                }
            }
        }
    }

    /** Under every metric, each node's tree from itself holds exactly its routes: path() is the branch to each destination. */
    @Property(tries = 150)
    void treeFromSelfAgreesWithPath(@ForAll @IntRange(min = 2, max = 25) int nodes, @ForAll long seed) {
        RandomTopology topology = RandomTopology.generate(nodes, new Random(seed), true);
        List<LinkStateAdvertisement> advertisements = new ArrayList<>();
        Map<NodeId, Router> routers = routersWithTheWholeDatabase(topology, RoutingConfig.defaults(), advertisements);
        for (Router r : routers.values()) {
            for (RoutingMetric metric : RoutingMetric.values()) {
                Map<NodeId, NodeId> tree = r.tree(r.self(), metric);
                assertThat(tree.get(r.self())).isEqualTo(r.self());
                for (LinkStateAdvertisement a : advertisements) {
                    List<NodeId> path = r.path(a.origin(), metric);
                    List<NodeId> branch = branch(tree, a.origin());
                    assertThat(branch).as(metric + " from " + r.self() + " to " + a.origin()).isEqualTo(path.isEmpty() ? null : path);
                }
                assertThat(tree).as("nothing but the nodes it routes to").hasSize(
                        (int) advertisements.stream().filter(a -> !r.path(a.origin(), metric).isEmpty()).count());
            }
        }
    }

    /**
     * Under every metric, the tree any node computes for any source is the union of that source's
     * routes: each branch is the route the source computes itself, costs the brute-force least cost,
     * follows the documented tie-breaking exactly for HOPS and LATENCY (integer costs, exact ties), and
     * from each node on it continues as that node's own route. Every node computes the same tree.
     */
    @Property(tries = 100)
    void treeFromAnySourceIsTheUnionOfItsShortestPaths(@ForAll @IntRange(min = 2, max = 20) int nodes, @ForAll long seed) {
        Random random = new Random(seed);
        RandomTopology topology = RandomTopology.generate(nodes, random, true);
        RoutingConfig config = RoutingConfig.defaults();
        List<LinkStateAdvertisement> advertisements = new ArrayList<>();
        Map<NodeId, Router> routers = routersWithTheWholeDatabase(topology, config, advertisements);
        BruteForceRoutes brute = new BruteForceRoutes(advertisements, config);
        List<NodeId> ids = brute.nodes();
        Router viewer = routers.get(ids.get(random.nextInt(ids.size())));
        Router other = routers.get(ids.get(random.nextInt(ids.size())));
        for (RoutingMetric metric : RoutingMetric.values()) {
            double[][] distances = brute.distances(metric);
            for (int s = 0; s < ids.size(); s++) {
                NodeId source = ids.get(s);
                Router sourceRouter = routers.get(source);
                Map<NodeId, NodeId> tree = viewer.tree(source, metric);
                assertThat(other.tree(source, metric)).as("the same tree at every node").isEqualTo(tree);
                for (int t = 0; t < ids.size(); t++) {
                    NodeId target = ids.get(t);
                    String what = metric + " tree of " + source + " at " + viewer.self() + ", branch to " + target;
                    List<NodeId> branch = branch(tree, target);
                    if (Double.isInfinite(distances[s][t])) {
                        assertThat(branch).as(what).isNull();
                        continue;
                    }
                    assertThat(branch).as(what).isEqualTo(sourceRouter.path(target, metric));
                    double cost = 0;
                    for (int i = 0; i + 1 < branch.size(); i++) {
                        cost += metric.linkCost(brute.link(branch.get(i), branch.get(i + 1)), config);
                        assertThat(routers.get(branch.get(i)).path(target, metric)).as(what + ": the route of " + branch.get(i))
                                .isEqualTo(branch.subList(i, branch.size()));
                    }
                    assertThat(cost).as(what).isCloseTo(distances[s][t], within(1e-9));
                    if (metric == RoutingMetric.HOPS || metric == RoutingMetric.LATENCY) {
                        assertThat(branch).as(what + ": tie-breaking").isEqualTo(brute.preferredPath(source, target, metric));
                    }
                }
            }
        }
    }
}
