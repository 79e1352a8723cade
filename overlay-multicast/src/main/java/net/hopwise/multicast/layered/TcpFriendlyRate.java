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

    /** The simpler model of Mahdavi and Floyd (Eq. 5-4), valid only below l = 0.16: {@code 8cM / (t_RTT sqrt l)}. */
    public static double mathis(double lossRate, double rttSeconds, int packetBytes, double c) {
        if (!(lossRate > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return 8.0 * c * packetBytes / (rttSeconds * Math.sqrt(Math.min(lossRate, 1.0)));
    }
}
