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
