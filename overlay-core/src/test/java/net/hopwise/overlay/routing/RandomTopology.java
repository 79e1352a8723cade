package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.hopwise.overlay.NodeId;

/**
 * A random connected overlay: a random spanning tree plus random extra links, each direction with
 * its own cost. Costs are often drawn from small sets so that equal-cost paths are common.
 * Optionally some nodes also claim links the other end does not list, or to nodes that do not exist.
 */
record RandomTopology(List<String> names, List<Edge> edges, Map<String, Map<String, LinkCost>> claims) {

    /** An undirected link with the cost each end measures. */
    record Edge(String a, String b, LinkCost ab, LinkCost ba) {}

    static RandomTopology generate(int n, Random r, boolean strayClaims) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("n" + i);
        }
        boolean[][] linked = new boolean[n][n];
        List<Edge> edges = new ArrayList<>();
        double density = r.nextDouble() * 0.35;
        for (int i = 1; i < n; i++) {
            int j = r.nextInt(i);
            linked[i][j] = linked[j][i] = true;
            edges.add(new Edge(names.get(i), names.get(j), cost(r), cost(r)));
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (!linked[i][j] && r.nextDouble() < density) {
                    linked[i][j] = linked[j][i] = true;
                    edges.add(new Edge(names.get(i), names.get(j), cost(r), cost(r)));
                }
            }
        }
        Map<String, Map<String, LinkCost>> claims = new TreeMap<>();
        for (String name : names) {
            claims.put(name, new LinkedHashMap<>());
        }
        for (Edge e : edges) {
            claims.get(e.a()).put(e.b(), e.ab());
            claims.get(e.b()).put(e.a(), e.ba());
        }
        if (strayClaims) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (i != j && !linked[i][j] && r.nextDouble() < 0.05) {
                        claims.get(names.get(i)).put(names.get(j), cost(r));
                    }
                }
                if (r.nextDouble() < 0.1) {
                    claims.get(names.get(i)).put("ghost" + r.nextInt(3), cost(r));
                }
            }
        }
        return new RandomTopology(names, edges, claims);
    }

    static LinkCost cost(Random r) {
        int latency = r.nextDouble() < 0.4 ? new int[] {0, 1_000, 2_000, 5_000}[r.nextInt(4)] : r.nextInt(200_001);
        double mode = r.nextDouble();
        int loss = mode < 0.4 ? new int[] {0, 10_000}[r.nextInt(2)]
                : mode < 0.43 ? LinkCost.MAX_LOSS_PPM
                : r.nextInt(300_001);
        return new LinkCost(latency, loss);
    }

    /** The advertisement {@code name} would originate, listing its claims. */
    LinkStateAdvertisement advertisement(String name, long sequence) {
        List<LinkStateAdvertisement.Link> links = new ArrayList<>();
        claims.get(name).forEach((to, c) -> links.add(new LinkStateAdvertisement.Link(NodeId.ofName(to), c)));
        return new LinkStateAdvertisement(NodeId.ofName(name), name, sequence, 0, links);
    }
}
