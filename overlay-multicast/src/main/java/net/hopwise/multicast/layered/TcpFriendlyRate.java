package net.hopwise.multicast.layered;

/**
 * The rate a TCP Reno flow would get on a path of loss rate {@code l} and round trip {@code t_RTT}:
 * the ceiling an ERA receiver puts on its target once it sees loss.
 */
public final class TcpFriendlyRate {
    private TcpFriendlyRate() {
    }

    /**
     * Padhye's equation as ERA simplified it (Eq. 5-6, after TFMCC): b = 1 and t_RTO = {@code
     * rtoFactor} t_RTT, keeping the min(1, ...) that the thesis's form dropped (it matters above
     * l = 8/27):
     *
     * <pre>R_TCP = 8M / (t_RTT sqrt(2l/3) + t_RTO min(1, 3 sqrt(3l/8)) l (1 + 32 l^2))</pre>
     *
     * @return bits per second; +infinity when {@code l <= 0} (the equation does not apply: no loss, no ceiling)
     */
    public static double padhye(double lossRate, double rttSeconds, int packetBytes, double rtoFactor) {
        if (!(lossRate > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double l = Math.min(lossRate, 1.0);
        double rto = rtoFactor * rttSeconds;
        double denominator = rttSeconds * Math.sqrt(2 * l / 3)
                + rto * Math.min(1, 3 * Math.sqrt(3 * l / 8)) * l * (1 + 32 * l * l);
        return 8.0 * packetBytes / denominator;
    }

    /**
     * The inverse of {@link #padhye}: the loss rate at which the equation gives {@code rateBps}, to
     * within a part in a thousand (RFC 5348, section 6.3.1, seeds a loss history with the interval
     * this gives for the rate received before the first loss).
     *
     * @return in (0, 1]; 1 when even total loss gives more than {@code rateBps}
     */
    public static double lossRateFor(double rateBps, double rttSeconds, int packetBytes, double rtoFactor) {
        if (!(rateBps > 0)) {
            return 1.0;
        }
        double lo = 1e-12;
        double hi = 1.0;
        if (padhye(hi, rttSeconds, packetBytes, rtoFactor) >= rateBps) {
            return 1.0;
        }
        // The rate falls monotonically with the loss rate: bisect on a log scale.
        for (int i = 0; i < 60 && hi / lo > 1.001; i++) {
            double mid = Math.sqrt(lo * hi);
            if (padhye(mid, rttSeconds, packetBytes, rtoFactor) > rateBps) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.sqrt(lo * hi);
    }

    /**
     * The rate of a TCP flow that meets {@code eventsPerSecond} loss events a second, whatever it
     * sends: the fixed point X = f(E / X) of {@link #padhye} (X in packets a second), the largest
     * one. An open-loop sender beside TCP meets every overflow of the shared queue, so its
     * loss-event rate per packet of its own, E / R, rises as it backs off, and fed that the equation
     * runs it down or up by its own error; solved for the rate at which a flow would see E as its
     * loss-event rate, the result does not depend on what the session holds. When the events are so
     * many that f(E / X) stays under X above one packet a second (the equation's RTO term makes it
     * fall steeply near a window of a few packets), the rate is f(E / X) where it comes closest.
     *
     * @return bits per second; +infinity when {@code eventsPerSecond <= 0}
     */
    public static double forEventRate(double eventsPerSecond, double rttSeconds, int packetBytes, double rtoFactor) {
        if (!(eventsPerSecond > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double bits = 8.0 * packetBytes;
        // g(X) = f(E / X) / X falls as 1 / sqrt(X) for large X; scan a log grid from one packet a second.
        double bestRatio = -1;
        double bestX = 1;
        double lastAbove = -1;
        double x = 1;
        for (int i = 0; i <= 600; i++, x *= 1.02) {
            double ratio = padhye(eventsPerSecond / x, rttSeconds, packetBytes, rtoFactor) / bits / x;
            if (ratio >= 1) {
                lastAbove = x;
            }
            if (ratio > bestRatio) {
                bestRatio = ratio;
                bestX = x;
            }
        }
        if (lastAbove < 0) {
            return bestRatio * bestX * bits;
        }
        // Bisect between the last grid point at or above the fixed point and the next one.
        double lo = lastAbove;
        double hi = lastAbove * 1.02;
        while (padhye(eventsPerSecond / hi, rttSeconds, packetBytes, rtoFactor) / bits >= hi) {
            lo = hi;
            hi *= 2;
        }
        for (int i = 0; i < 40; i++) {
            double mid = (lo + hi) / 2;
            if (padhye(eventsPerSecond / mid, rttSeconds, packetBytes, rtoFactor) / bits >= mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo * bits;
    }

    /** The simpler model of Mahdavi and Floyd (Eq. 5-4), valid only below l = 0.16: {@code 8cM / (t_RTT sqrt l)}. */
    public static double mathis(double lossRate, double rttSeconds, int packetBytes, double c) {
        if (!(lossRate > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return 8.0 * c * packetBytes / (rttSeconds * Math.sqrt(Math.min(lossRate, 1.0)));
    }
}
