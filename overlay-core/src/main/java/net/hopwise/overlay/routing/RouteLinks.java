package net.hopwise.overlay.routing;

import java.util.Arrays;

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
        // Sorted primitive keys, not a set of boxed ones: this runs for every route computation.
        int claims = 0;
        for (LinkStateAdvertisement a : ads) {
            claims += a.links().size();
        }
        long[] listed = new long[claims];
        int known = 0;
        for (int u = 0; u < n; u++) {
            for (LinkStateAdvertisement.Link link : ads[u].links()) {
                int v = index.numberOf(link.neighbour().value());
                if (v >= 0) {
                    listed[known++] = ((long) u << 32) | v;
                }
            }
        }
        Arrays.sort(listed, 0, known);
        int[] from = new int[known];
        int[] to = new int[known];
        LinkCost[] costs = new LinkCost[known];
        int count = 0;
        for (int u = 0; u < n; u++) {
            for (LinkStateAdvertisement.Link link : ads[u].links()) {
                int v = index.numberOf(link.neighbour().value());
                if (v >= 0 && Arrays.binarySearch(listed, 0, known, ((long) v << 32) | u) >= 0) {
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
