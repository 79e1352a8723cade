package net.hopwise.overlay.routing;

import java.util.Arrays;

/**
 * Dijkstra's least costs over a {@link RouteLinks} adjacency with integer weights, on primitive
 * arrays. A general graph library built a graph of boxed vertices and edge objects for every search,
 * and a route computation searches once per metric (and once more per kept neighbour): at a thousand
 * nodes building those graphs was most of a simulation's CPU and much of its garbage. The least cost
 * of a node is one number whatever the search, so this gives exactly what that library gave.
 *
 * <p>The heap holds (cost, node) entries and is not decreased in place: a node is pushed again when
 * its cost drops and stale entries are skipped when popped, so it holds at most one entry per usable
 * link plus the source.
 */
final class LeastCosts {
    private LeastCosts() {}

    /** Least cost from {@code s} to every node in integer weight units, -1 where unreachable. */
    static long[] from(int n, int s, RouteLinks links, RouteWeights w) {
        long[] dist = new long[n];
        Arrays.fill(dist, -1);
        boolean[] settled = new boolean[n];
        long[] heapCost = new long[links.count() + 1];
        int[] heapNode = new int[links.count() + 1];
        int size = 0;
        dist[s] = 0;
        heapCost[0] = 0;
        heapNode[0] = s;
        size = 1;
        while (size > 0) {
            long du = heapCost[0];
            int u = heapNode[0];
            size--;
            if (size > 0) {
                siftDown(heapCost, heapNode, size, heapCost[size], heapNode[size]);
            }
            if (settled[u]) {
                continue;
            }
            settled[u] = true;
            for (int i = links.outStart[u]; i < links.outStart[u + 1]; i++) {
                int e = links.outByFrom[i];
                if (!w.usable[e]) {
                    continue;
                }
                int v = links.to[e];
                long dv = du + w.weight[e];
                if (!settled[v] && (dist[v] < 0 || dv < dist[v])) {
                    dist[v] = dv;
                    size = siftUp(heapCost, heapNode, size, dv, v);
                }
            }
        }
        return dist;
    }

    /** Adds (cost, node) to the heap of {@code size} entries; returns the new size. */
    private static int siftUp(long[] cost, int[] node, int size, long c, int v) {
        int i = size;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (cost[p] <= c) {
                break;
            }
            cost[i] = cost[p];
            node[i] = node[p];
            i = p;
        }
        cost[i] = c;
        node[i] = v;
        return size + 1;
    }

    /** Places (c, v), which replaces the root, in the heap of {@code size} entries. */
    private static void siftDown(long[] cost, int[] node, int size, long c, int v) {
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && cost[child + 1] < cost[child]) {
                child++;
            }
            if (cost[child] >= c) {
                break;
            }
            cost[i] = cost[child];
            node[i] = node[child];
            i = child;
        }
        cost[i] = c;
        node[i] = v;
    }
}
