package net.hopwise.overlay.routing;

import java.util.Arrays;

/** One metric's link costs as exact integers, and the way back to the metric's unit. */
final class RouteWeights {
    final long[] weight;
    final boolean[] usable;
    private final RoutingMetric metric;
    /** Weight units per metric unit: 2^scale, except LATENCY, weighed in microseconds. */
    private final int scale;

    private RouteWeights(RoutingMetric metric, long[] weight, boolean[] usable, int scale) {
        this.metric = metric;
        this.weight = weight;
        this.usable = usable;
        this.scale = scale;
    }

    static RouteWeights of(RoutingMetric metric, RouteLinks links, int n, RoutingConfig config) {
        int count = links.count();
        long[] weight = new long[count];
        boolean[] usable = new boolean[count];
        switch (metric) {
            case HOPS -> {
                Arrays.fill(weight, 1);
                Arrays.fill(usable, true);
                return new RouteWeights(metric, weight, usable, 0);
            }
            case LATENCY -> {
                for (int e = 0; e < count; e++) {
                    weight[e] = links.costs[e].latencyMicros();
                    usable[e] = true;
                }
                return new RouteWeights(metric, weight, usable, 0);
            }
            default -> {
                double[] real = new double[count];
                double max = 0;
                for (int e = 0; e < count; e++) {
                    real[e] = metric.linkCost(links.costs[e], config);
                    // A link that loses everything has infinite LOSS cost: no route uses it.
                    usable[e] = !Double.isInfinite(real[e]);
                    if (usable[e]) {
                        max = Math.max(max, real[e]);
                    }
                }
                // The finest binary grid on which a path of n-1 links stays below 2^52.
                int scale = max > 0 ? 51 - Math.getExponent(max * Math.max(1, n - 1)) : 0;
                for (int e = 0; e < count; e++) {
                    if (usable[e]) {
                        weight[e] = (long) Math.rint(Math.scalb(real[e], scale));
                    }
                }
                return new RouteWeights(metric, weight, usable, scale);
            }
        }
    }

    /** A cost in the metric's unit as weight units, unrounded (a margin, compared with exact differences). */
    double toUnits(double cost) {
        return metric == RoutingMetric.LATENCY ? cost * 1000.0 : Math.scalb(cost, scale);
    }

    double toCost(long units) {
        return metric == RoutingMetric.LATENCY ? units / 1000.0 : Math.scalb((double) units, -scale);
    }
}
