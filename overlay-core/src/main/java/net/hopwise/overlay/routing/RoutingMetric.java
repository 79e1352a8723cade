package net.hopwise.overlay.routing;

/**
 * The costs a route can minimise. Every metric is additive along a path, so one shortest-path
 * computation per metric finds the best route.
 */
public enum RoutingMetric {
    /** Every link costs 1: fewest overlay hops. */
    HOPS,
    /** One-way latency in milliseconds: lowest delay. */
    LATENCY,
    /** {@code -ln(1 - p)}: the path with the highest delivery probability (products become sums). */
    LOSS,
    /**
     * The expected delay in milliseconds of a packet over a link whose losses are recovered once
     * (Danilov's real-time routing metric): a packet lost for good is counted as arriving at the
     * codec deadline.
     */
    EXPECTED_LATENCY;

    private static final RoutingMetric[] VALUES = values();

    /** All metrics, without the copy {@link #values()} makes. */
    static RoutingMetric[] all() {
        return VALUES;
    }

    /**
     * The cost of one link under this metric.
     *
     * <ul>
     *   <li>{@code HOPS}: 1.
     *   <li>{@code LATENCY}: the one-way latency T in ms.
     *   <li>{@code LOSS}: {@code -ln(1 - p)}; +Infinity for a link that loses everything, which routing
     *       never uses.
     *   <li>{@code EXPECTED_LATENCY}: {@code (1-p)T + (p - 2p^2 + 3p^3)(3T + Δ) + (2p^2 - 3p^3)Tmax} in ms
     *       with Tmax and Δ from the configuration. The cubic is an approximation that bends down
     *       above about p = 0.4 (it goes negative near p = 1), so the cost is its running maximum over
     *       [0, p]: identical to the formula wherever it rises, and a lossier link never looks
     *       cheaper nor costs less than its latency.
     * </ul>
     */
    public double linkCost(LinkCost c, RoutingConfig config) {
        return switch (this) {
            case HOPS -> 1.0;
            case LATENCY -> c.latencyMillis();
            case LOSS -> -Math.log1p(-c.lossRate());
            case EXPECTED_LATENCY -> expectedLatencyMillis(
                    c.latencyMillis(),
                    c.lossRate(),
                    config.expectedLatencyDeltaMillis(),
                    config.expectedLatencyDeadlineMillis());
        };
    }

    /** The thesis formula, made monotone in p (see {@link #linkCost}). */
    static double expectedLatencyMillis(double t, double p, double delta, double deadline) {
        double best = Math.max(thesisFormula(t, 0, delta, deadline), thesisFormula(t, p, delta, deadline));
        // f'(q) = (A - T) + 4Dq - 9Dq^2 with A = 3T + Δ and D = Tmax - A; a maximum of f inside (0, p)
        // can only sit at a root of f'.
        double a = 3 * t + delta;
        double d = deadline - a;
        if (d != 0) {
            double discriminant = 16 * d * d + 36 * d * (a - t);
            if (discriminant >= 0) {
                double root = Math.sqrt(discriminant);
                for (double q : new double[] {(4 * d + root) / (18 * d), (4 * d - root) / (18 * d)}) {
                    if (q > 0 && q < p) {
                        best = Math.max(best, thesisFormula(t, q, delta, deadline));
                    }
                }
            }
        }
        return best;
    }

    private static double thesisFormula(double t, double p, double delta, double deadline) {
        double p2 = p * p;
        double p3 = p2 * p;
        return (1 - p) * t + (p - 2 * p2 + 3 * p3) * (3 * t + delta) + (2 * p2 - 3 * p3) * deadline;
    }
}
