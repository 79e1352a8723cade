package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Routes equal brute-force shortest paths on random graphs, under every metric. */
class RouteComputationProperties {
    private static final long MS = 1_000_000L;

    private static final RouterOutput DISCARD = new RouterOutput() {
        @Override
        public void sendUpdate(NodeId neighbour, LinkStateUpdate update) {}

        @Override
        public void sendAck(NodeId neighbour, LinkStateAck ack) {}

        @Override
        public void routesChanged(long nowNanos) {}
    };

    /**
     * Every node of a random connected graph (with one-sided and dangling link claims mixed in) gets
     * the whole database; then each node's costs and paths under every metric must equal
     * Floyd-Warshall's, each next hop must continue the same path, and HOPS and LATENCY ties must
     * be broken exactly by the documented rule.
     */
    @Property(tries = 200)
    void routesEqualBruteForceShortestPaths(@ForAll @IntRange(min = 2, max = 25) int nodes, @ForAll long seed) {
        RandomTopology topology = RandomTopology.generate(nodes, new Random(seed), true);
        RoutingConfig config = RoutingConfig.defaults();
        List<LinkStateAdvertisement> advertisements = new ArrayList<>();
        for (String name : topology.names()) {
            advertisements.add(topology.advertisement(name, 1));
        }
        Map<NodeId, Router> routers = new HashMap<>();
        for (String name : topology.names()) {
            NodeId self = NodeId.ofName(name);
            Router r = new Router(self, name, config, DISCARD, 1, 0);
            topology.claims().get(name).forEach((to, cost) -> r.neighbourUp(NodeId.ofName(to), cost, 0));
            List<LinkStateAdvertisement> others = new ArrayList<>(advertisements);
            others.removeIf(a -> a.origin().equals(self));
            NodeId anyNeighbour = NodeId.ofName(topology.claims().get(name).keySet().iterator().next());
            r.onUpdate(anyNeighbour, new LinkStateUpdate(others), 100 * MS);
            routers.put(self, r);
        }
        new BruteForceRoutes(advertisements, config).verify(routers::get);
    }
}
