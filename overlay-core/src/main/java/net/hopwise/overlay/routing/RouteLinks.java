package net.hopwise.overlay.routing;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/** The links routing may use, numbered, with adjacency in both directions. */
final class RouteLinks {
    final int[] from;
    final int[] to;
    final LinkCost[] costs;
    final int[] outStart;
    final int[] outByFrom;
    final int[] inStart;
    final int[] inByTo;

    private RouteLinks(int n, int[] from, int[] to, LinkCost[] costs) {
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

    /** RouteLinks u→v where u lists v and v lists u. */
    static RouteLinks bidirectional(LinkStateAdvertisement[] ads, NodeIndex index) {
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
        return new RouteLinks(n, Arrays.copyOf(from, count), Arrays.copyOf(to, count), Arrays.copyOf(costs, count));
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
