package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Whether a recomputed table has the same routes as the previous one (which decides if the node
 * reports a route change) agrees with comparing every route's path, under every metric, whether
 * the nodes stayed the same (compared by their parents) or not, and with routes kept by hysteresis.
 */
class SameRoutesProperties {

    @Property(tries = 300)
    void sameRoutesAsMeansEveryPathIsTheSame(@ForAll @IntRange(min = 1, max = 30) int n, @ForAll long seed) {
        Random r = new Random(seed);
        RoutingConfig config = RoutingConfig.defaults();
        List<LinkStateAdvertisement> before = topology(n, r, 0.3 * r.nextDouble());
        NodeId self = before.get(r.nextInt(n)).origin();
        List<LinkStateAdvertisement> after = new ArrayList<>();
        double change = r.nextInt(3) == 0 ? 0 : r.nextDouble() * 0.5;
        for (LinkStateAdvertisement a : before) {
            // Sometimes a node leaves the database (never this one): the numbering changes.
            if (!a.origin().equals(self) && r.nextInt(20) == 0) {
                continue;
            }
            List<LinkStateAdvertisement.Link> links = new ArrayList<>();
            for (LinkStateAdvertisement.Link l : a.links()) {
                links.add(r.nextDouble() < change ? new LinkStateAdvertisement.Link(l.neighbour(), cost(r)) : l);
            }
            after.add(new LinkStateAdvertisement(a.origin(), a.originName(), 2, 0, links));
        }
        RoutingTable first = RoutingTable.compute(self, before, config);
        RoutingTable second = RoutingTable.compute(self, after, config, first);
        List<NodeId> everyNode = before.stream().map(LinkStateAdvertisement::origin).toList();
        boolean samePaths = true;
        for (RoutingMetric m : RoutingMetric.all()) {
            for (NodeId v : everyNode) {
                samePaths &= first.path(v, m).equals(second.path(v, m));
            }
        }
        assertThat(second.sameRoutesAs(first)).isEqualTo(samePaths);
        assertThat(first.sameRoutesAs(second)).isEqualTo(samePaths);
        assertThat(second.sameRoutesAs(second)).isTrue();
    }

    private static List<LinkStateAdvertisement> topology(int n, Random r, double density) {
        NodeId[] nodes = new NodeId[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = NodeId.ofName("n" + i);
        }
        List<LinkStateAdvertisement> ads = new ArrayList<>();
        for (int u = 0; u < n; u++) {
            List<LinkStateAdvertisement.Link> links = new ArrayList<>();
            for (int v = 0; v < n; v++) {
                // A chain keeps most of the graph connected; the rest is random, one-sided claims included.
                if (v != u && (Math.abs(u - v) == 1 || r.nextDouble() < density)) {
                    links.add(new LinkStateAdvertisement.Link(nodes[v], cost(r)));
                }
            }
            ads.add(new LinkStateAdvertisement(nodes[u], "n" + u, 1, 0, links));
        }
        return ads;
    }

    private static LinkCost cost(Random r) {
        // Few distinct values, so that equal-cost paths and near ties (which hysteresis keeps) are common.
        return new LinkCost(1000 * (1 + r.nextInt(4)) + (r.nextBoolean() ? 0 : r.nextInt(300)),
                r.nextInt(3) == 0 ? 0 : 1000 * r.nextInt(4));
    }
}
