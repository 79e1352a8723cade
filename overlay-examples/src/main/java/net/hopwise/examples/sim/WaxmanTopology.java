package net.hopwise.examples.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random topologies in the Waxman model as BRITE generates them (the thesis's routing simulations
 * used BRITE's Waxman model): nodes placed uniformly on a square plane, each new node joining
 * {@code m} existing nodes chosen with probability proportional to {@code alpha * exp(-d / (beta * L))}
 * (d their distance, L the plane's diagonal). Incremental growth keeps the graph connected, and
 * m = 2 gives the average degree of 4 of BRITE's default.
 */
final class WaxmanTopology {
    /** Light in fibre: about 200 km per millisecond. */
    static final double KM_PER_MS = 200;

    final int nodes;
    final double[] x;
    final double[] y;
    final List<int[]> edges = new ArrayList<>();
    final List<List<Integer>> adjacency = new ArrayList<>();

    WaxmanTopology(int nodes, int m, double alpha, double beta, double planeKm, long seed) {
        this.nodes = nodes;
        SplittableRandom random = new SplittableRandom(seed);
        x = new double[nodes];
        y = new double[nodes];
        for (int i = 0; i < nodes; i++) {
            x[i] = random.nextDouble() * planeKm;
            y[i] = random.nextDouble() * planeKm;
            adjacency.add(new ArrayList<>());
        }
        double diagonal = planeKm * Math.sqrt(2);
        double[] weight = new double[nodes];
        for (int i = 1; i < nodes; i++) {
            int links = Math.min(m, i);
            double total = 0;
            for (int j = 0; j < i; j++) {
                weight[j] = alpha * Math.exp(-distanceKm(i, j) / (beta * diagonal));
                total += weight[j];
            }
            for (int k = 0; k < links; k++) {
                double r = random.nextDouble() * total;
                int chosen = i - 1;
                for (int j = 0; j < i; j++) {
                    r -= weight[j];
                    if (r < 0 && weight[j] > 0) {
                        chosen = j;
                        break;
                    }
                }
                if (weight[chosen] == 0) {
                    for (int j = 0; j < i; j++) {
                        if (weight[j] > 0) {
                            chosen = j;
                            break;
                        }
                    }
                }
                total -= weight[chosen];
                weight[chosen] = 0;
                edges.add(new int[] {chosen, i});
                adjacency.get(chosen).add(i);
                adjacency.get(i).add(chosen);
            }
        }
    }

    double distanceKm(int a, int b) {
        return Math.hypot(x[a] - x[b], y[a] - y[b]);
    }

    double delayMillis(int a, int b) {
        return Math.max(0.1, distanceKm(a, b) / KM_PER_MS);
    }

    /** Whether the graph stays connected without {@code skipEdge} (index, or -1) and {@code skipNode} (or -1). */
    boolean connectedWithout(int skipEdge, int skipNode) {
        int[] skip = skipEdge < 0 ? null : edges.get(skipEdge);
        boolean[] seen = new boolean[nodes];
        int start = skipNode == 0 ? 1 : 0;
        java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>();
        queue.add(start);
        seen[start] = true;
        int reached = 1;
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (int v : adjacency.get(u)) {
                if (v == skipNode || seen[v]) {
                    continue;
                }
                if (skip != null && ((skip[0] == u && skip[1] == v) || (skip[0] == v && skip[1] == u))) {
                    continue;
                }
                seen[v] = true;
                reached++;
                queue.add(v);
            }
        }
        return reached == nodes - (skipNode >= 0 ? 1 : 0);
    }
}
