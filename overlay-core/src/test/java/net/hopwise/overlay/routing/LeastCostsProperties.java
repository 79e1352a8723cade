package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The array-based Dijkstra gives the least costs Bellman-Ford gives, under every metric, on random
 * graphs with what makes a search tricky: zero-cost links, links listed by one end only, links that
 * lose everything (unusable under LOSS), nodes no path reaches, and many equal-cost paths.
 */
class LeastCostsProperties {

    @Property(tries = 200)
    void leastCostsEqualBellmanFord(@ForAll @IntRange(min = 1, max = 40) int n, @ForAll long seed) {
        Random r = new Random(seed);
        NodeId[] nodes = new NodeId[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = NodeId.ofName("n" + i);
        }
        // The database's order, which is what a route computation numbers nodes by.
        Arrays.sort(nodes);
        double density = r.nextDouble() * 0.3;
        LinkStateAdvertisement[] ads = new LinkStateAdvertisement[n];
        for (int u = 0; u < n; u++) {
            List<LinkStateAdvertisement.Link> links = new ArrayList<>();
            for (int v = 0; v < n; v++) {
                if (v != u && r.nextDouble() < density) {
                    links.add(new LinkStateAdvertisement.Link(nodes[v], cost(r)));
                }
            }
            ads[u] = new LinkStateAdvertisement(nodes[u], "n" + u, 1, 0, links);
        }
        NodeIndex index = new NodeIndex(nodes);
        RouteLinks links = RouteLinks.bidirectional(ads, index);
        for (RoutingMetric metric : RoutingMetric.all()) {
            RouteWeights w = RouteWeights.of(metric, links, n, RoutingConfig.defaults());
            for (int s = 0; s < n; s++) {
                assertThat(LeastCosts.from(n, s, links, w)).as("%s from %d", metric, s)
                        .containsExactly(bellmanFord(n, s, links, w));
            }
        }
    }

    private static LinkCost cost(Random r) {
        int latency = switch (r.nextInt(4)) {
            case 0 -> 0;
            case 1 -> 1000;
            default -> r.nextInt(50_000);
        };
        int loss = switch (r.nextInt(5)) {
            case 0 -> LinkCost.MAX_LOSS_PPM;
            case 1 -> 10_000;
            case 2 -> r.nextInt(LinkCost.MAX_LOSS_PPM);
            default -> 0;
        };
        return new LinkCost(latency, loss);
    }

    private static long[] bellmanFord(int n, int s, RouteLinks links, RouteWeights w) {
        long[] dist = new long[n];
        Arrays.fill(dist, -1);
        dist[s] = 0;
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int e = 0; e < links.count(); e++) {
                long du = dist[links.from[e]];
                int v = links.to[e];
                if (w.usable[e] && du >= 0 && (dist[v] < 0 || du + w.weight[e] < dist[v])) {
                    dist[v] = du + w.weight[e];
                    changed = true;
                }
            }
        }
        return dist;
    }
}
