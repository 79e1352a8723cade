package net.hopwise.overlay.sim.tcp;

/**
 * The steady-state throughput of a bulk TCP transfer as a function of loss, from Padhye, Firoiu,
 * Towsley and Kurose, "Modeling TCP Throughput: A Simple Model and its Empirical Validation"
 * (SIGCOMM 1998), equation 30, which the papers use to compare end-to-end and hop-by-hop capacity:
 *
 * <pre>B = min(Wmax / RTT, 1 / (RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1 + 32 p^2)))</pre>
 *
 * in segments per second, with p the loss rate, b the segments acknowledged per ACK and T0 the
 * retransmission timeout.
 */
public final class PadhyeModel {
    private PadhyeModel() {
    }

    /**
     * @param lossRate p, in (0, 1]
     * @param rttSeconds round-trip time
     * @param timeoutSeconds T0
     * @param segmentsPerAck b
     * @param maxWindowSegments Wmax, or {@link Double#POSITIVE_INFINITY} for no limit
     * @return segments per second
     */
    public static double segmentsPerSecond(double lossRate, double rttSeconds, double timeoutSeconds,
            double segmentsPerAck, double maxWindowSegments) {
        if (!(lossRate > 0 && lossRate <= 1)) {
            throw new IllegalArgumentException("loss rate must be in (0, 1], got " + lossRate);
        }
        double p = lossRate;
        double b = segmentsPerAck;
        double denominator = rttSeconds * Math.sqrt(2 * b * p / 3)
                + timeoutSeconds * Math.min(1, 3 * Math.sqrt(3 * b * p / 8)) * p * (1 + 32 * p * p);
        return Math.min(maxWindowSegments / rttSeconds, 1 / denominator);
    }

    /** The papers' form (b = 1, no window limit), in bits per second for segments of {@code segmentBytes}. */
    public static double bitsPerSecond(double lossRate, double rttSeconds, double timeoutSeconds, int segmentBytes) {
        return segmentsPerSecond(lossRate, rttSeconds, timeoutSeconds, 1, Double.POSITIVE_INFINITY)
                * segmentBytes * 8;
    }
}
