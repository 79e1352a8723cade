package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Route hysteresis on random graphs: every node recomputes its table from the shared database after
 * random cost changes and link failures, each with its own history (the previous table, a table of
 * some stale database, or none); forwarding by all the tables together must never loop and must reach
 * every reachable destination, and each route must follow the keeping rule exactly.
 */
class RouteHysteresisProperties {
    private static final double TOLERANCE = 1e-9;

    @Property(tries = 150)
    void forwardingNeverLoopsWhateverEachNodeKept(@ForAll @IntRange(min = 2, max = 18) int nodes, @ForAll long seed) {
        Random r = new Random(seed);
        RandomTopology topology = RandomTopology.generate(nodes, r, true);
        RoutingConfig config = r.nextBoolean() ? RoutingConfig.defaults() : RoutingConfig.builder()
                .routeChangeMarginFraction(r.nextDouble())
                .routeChangeMarginMillis(r.nextDouble() * 100)
                .routeChangeMarginLoss(r.nextDouble())
                .build();
        Map<String, Map<String, LinkCost>> claims = copy(topology.claims());
        Map<String, RoutingTable> tables = new HashMap<>();
        for (int round = 0; round < 6; round++) {
            if (round > 0) {
                perturb(claims, r);
            }
            List<LinkStateAdvertisement> database = advertisements(claims, round + 1);
            Map<String, Map<String, LinkCost>> stale = copy(claims);
            perturb(stale, r);
            List<LinkStateAdvertisement> staleDatabase = advertisements(stale, round + 1);
            Map<NodeId, RoutingTable> next = new HashMap<>();
            for (String name : claims.keySet()) {
                NodeId self = NodeId.ofName(name);
                double history = r.nextDouble();
                RoutingTable previous = history < 0.1 ? null
                        : history < 0.4 ? RoutingTable.compute(self, staleDatabase, config)
                        : tables.get(name);
                RoutingTable table = RoutingTable.compute(self, database, config, previous);
                next.put(self, table);
                tables.put(name, table);
                verifyKeepingRule(self, table, previous, database, config);
            }
            verifyForwarding(next, new BruteForceRoutes(database, config));
        }
    }

    /** Each route is the least-cost one, or the previous next hop where the rule keeps it, and is reported as such. */
    private static void verifyKeepingRule(NodeId self, RoutingTable table, RoutingTable previous,
            List<LinkStateAdvertisement> database, RoutingConfig config) {
        BruteForceRoutes brute = new BruteForceRoutes(database, config);
        RoutingTable leastCost = RoutingTable.compute(self, database, config);
        for (RoutingMetric metric : RoutingMetric.values()) {
            double[][] d = brute.distances(metric);
            int s = brute.nodes().indexOf(self);
            for (NodeId t : brute.nodes()) {
                String what = metric + " " + self + " -> " + t;
                NodeId hop = table.nextHop(t, metric);
                NodeId freshHop = leastCost.nextHop(t, metric);
                NodeId before = previous == null ? null : previous.nextHop(t, metric);
                if (metric == RoutingMetric.LATENCY && before != null && !before.equals(freshHop) && freshHop != null) {
                    // Integer microseconds: the rule can be checked exactly.
                    long best = brute.exactLeastCost(self, t, metric);
                    long link = brute.exactLinkCost(self, before, metric);
                    long rest = brute.exactLeastCost(before, t, metric);
                    boolean keep = link >= 0 && rest >= 0 && rest < best && link + rest - best
                            <= Math.max(config.routeChangeMarginMillis() * 1000, config.routeChangeMarginFraction() * best);
                    Statistics.label("latency route with another previous next hop").collect(keep ? "kept" : "moved");
                    assertThat(hop).as(what + ": kept previous " + before + "?").isEqualTo(keep ? before : freshHop);
                }
                if (hop == null || hop.equals(freshHop)) {
                    assertThat(hop).as(what).isEqualTo(freshHop);
                    assertThat(table.path(t, metric)).as(what).isEqualTo(leastCost.path(t, metric));
                    assertThat(table.pathCost(t, metric)).as(what).isEqualTo(leastCost.pathCost(t, metric));
                    continue;
                }
                assertThat(metric).as(what + ": HOPS never keeps").isNotEqualTo(RoutingMetric.HOPS);
                assertThat(hop).as(what + ": only the previous next hop is kept").isEqualTo(before);
                double best = d[s][brute.nodes().indexOf(t)];
                double rest = d[brute.nodes().indexOf(hop)][brute.nodes().indexOf(t)];
                assertThat(rest).as(what + ": the kept next hop is strictly downstream").isLessThan(best + TOLERANCE);
                double margin = Math.max(metric == RoutingMetric.LOSS ? config.routeChangeMarginLoss()
                        : config.routeChangeMarginMillis(), config.routeChangeMarginFraction() * best);
                double cost = table.pathCost(t, metric);
                assertThat(cost).as(what + ": within the margin").isBetween(best - TOLERANCE, best + margin + TOLERANCE);
                List<NodeId> path = table.path(t, metric);
                List<NodeId> expected = new ArrayList<>(List.of(self));
                expected.addAll(RoutingTable.compute(hop, database, config).path(t, metric));
                assertThat(path).as(what + ": the kept hop, then its least-cost route").isEqualTo(expected);
                double sum = 0;
                for (int i = 0; i + 1 < path.size(); i++) {
                    sum += metric.linkCost(brute.link(path.get(i), path.get(i + 1)), config);
                }
                assertThat(cost).as(what + ": the cost of the reported path").isCloseTo(sum, within(1e-6));
            }
        }
    }

    /** Follows next hops table by table from every node to every node. */
    private static void verifyForwarding(Map<NodeId, RoutingTable> tables, BruteForceRoutes brute) {
        for (RoutingMetric metric : RoutingMetric.values()) {
            double[][] d = brute.distances(metric);
            for (NodeId s : brute.nodes()) {
                for (NodeId t : brute.nodes()) {
                    boolean reachable = !Double.isInfinite(d[brute.nodes().indexOf(s)][brute.nodes().indexOf(t)]);
                    Set<NodeId> visited = new HashSet<>();
                    List<NodeId> walk = new ArrayList<>();
                    NodeId x = s;
                    while (x != null && !x.equals(t)) {
                        walk.add(x);
                        assertThat(visited.add(x)).as(metric + " " + s + " -> " + t + " loops: " + walk).isTrue();
                        x = tables.get(x).nextHop(t, metric);
                    }
                    assertThat(x != null).as(metric + " " + s + " -> " + t + " delivered: " + walk).isEqualTo(reachable);
                }
            }
        }
    }

    /** Costs drift by up to 20% (the noise hysteresis absorbs), some jump, and some links fail or come back. */
    private static void perturb(Map<String, Map<String, LinkCost>> claims, Random r) {
        List<String> names = new ArrayList<>(claims.keySet());
        for (Map<String, LinkCost> links : claims.values()) {
            for (Map.Entry<String, LinkCost> e : new ArrayList<>(links.entrySet())) {
                double p = r.nextDouble();
                LinkCost c = e.getValue();
                if (p < 0.4) {
                    int latency = (int) Math.min(1_000_000, Math.max(0, c.latencyMicros() * (0.8 + 0.4 * r.nextDouble())));
                    int loss = (int) Math.min(LinkCost.MAX_LOSS_PPM, Math.max(0, c.lossPpm() + r.nextInt(2_001) - 1_000));
                    e.setValue(new LinkCost(latency, loss));
                } else if (p < 0.5) {
                    e.setValue(RandomTopology.cost(r));
                } else if (p < 0.53) {
                    links.remove(e.getKey());
                }
            }
        }
        for (int i = r.nextInt(3); i > 0; i--) {
            String a = names.get(r.nextInt(names.size()));
            String b = names.get(r.nextInt(names.size()));
            if (!a.equals(b)) {
                claims.get(a).put(b, RandomTopology.cost(r));
                claims.get(b).put(a, RandomTopology.cost(r));
            }
        }
    }

    private static List<LinkStateAdvertisement> advertisements(Map<String, Map<String, LinkCost>> claims, long sequence) {
        List<LinkStateAdvertisement> ads = new ArrayList<>();
        claims.forEach((name, links) -> {
            List<LinkStateAdvertisement.Link> list = new ArrayList<>();
            links.forEach((to, c) -> list.add(new LinkStateAdvertisement.Link(NodeId.ofName(to), c)));
            ads.add(new LinkStateAdvertisement(NodeId.ofName(name), name, sequence, 0, list));
        });
        return ads;
    }

    private static Map<String, Map<String, LinkCost>> copy(Map<String, Map<String, LinkCost>> claims) {
        Map<String, Map<String, LinkCost>> copy = new TreeMap<>();
        claims.forEach((name, links) -> copy.put(name, new LinkedHashMap<>(links)));
        return copy;
    }
}
