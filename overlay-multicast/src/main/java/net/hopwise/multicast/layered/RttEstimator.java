package net.hopwise.multicast.layered;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Where an ERA receiver gets the round trip it puts into the TCP equation. The thesis leaves this
 * open; three ways are offered, and a receiver takes any.
 */
public interface RttEstimator {
    /** A data packet sent at {@code sendTimeMicros} on the sender's clock arrived at {@code arrivalNanos}. */
    default void onPacket(long sendTimeMicros, long arrivalNanos) {
    }

    /** The round trip to use now, seconds, > 0. */
    double rttSeconds();

    /** A constant: how the thesis's ns-2 runs behaved (its trace implies 50 ms). */
    static RttEstimator fixed(Duration rtt) {
        if (rtt.isNegative() || rtt.isZero()) {
            throw new IllegalArgumentException("rtt must be > 0, got " + rtt);
        }
        double s = rtt.toNanos() / 1e9;
        return () -> s;
    }

    /**
     * 2 x one-way latency (arrival minus SCT) + epsilon, the one-way latency smoothed with a gain of
     * 1/8 as TCP smooths its RTT. The thesis needs synchronised clocks for it; on the overlay the SCT
     * reaches a receiver read on its own clock (each relay moves it by its link's clock offset), so only
     * the symmetric path is assumed; {@code initial} is used until the first packet.
     */
    static RttEstimator fromTimestamps(Duration epsilon, Duration initial) {
        return new FromTimestamps(epsilon.toNanos() / 1e9, initial.toNanos() / 1e9);
    }

    /**
     * The smallest one-way latency seen (the path without queues) plus the smoothed one-way latency
     * plus epsilon: the data path's queueing counted once, not twice as {@link #fromTimestamps} does,
     * since the return path of a round trip does not cross the data's queues.
     */
    static RttEstimator forwardQueue(Duration epsilon, Duration initial) {
        FromTimestamps smoothed = new FromTimestamps(epsilon.toNanos() / 1e9, initial.toNanos() / 1e9);
        return new RttEstimator() {
            private double base = Double.POSITIVE_INFINITY;

            @Override
            public void onPacket(long sendTimeMicros, long arrivalNanos) {
                smoothed.onPacket(sendTimeMicros, arrivalNanos);
                double sample = (arrivalNanos - sendTimeMicros * 1000) / 1e9;
                if (sample >= 0) {
                    base = Math.min(base, sample);
                }
            }

            @Override
            public double rttSeconds() {
                return smoothed.oneWay < 0 ? smoothed.initial : smoothed.oneWay + base + smoothed.epsilon;
            }
        };
    }

    /**
     * The sum of the per-hop round trips along the tree from the source, as the overlay measures
     * each link: {@code pathRttNanos} reads it when asked (for example from the nodes' link
     * statistics); a non-positive sum falls back to {@code fallback}.
     */
    static RttEstimator perHopSum(LongSupplier pathRttNanos, Duration fallback) {
        double f = fallback.toNanos() / 1e9;
        return () -> {
            long sum = pathRttNanos.getAsLong();
            return sum > 0 ? sum / 1e9 : f;
        };
    }

    /** See {@link #fromTimestamps}. */
    final class FromTimestamps implements RttEstimator {
        private final double epsilon;
        private final double initial;
        private double oneWay = -1;

        FromTimestamps(double epsilonSeconds, double initialSeconds) {
            if (!(initialSeconds > 0) || epsilonSeconds < 0) {
                throw new IllegalArgumentException("initial must be > 0 and epsilon >= 0");
            }
            this.epsilon = epsilonSeconds;
            this.initial = initialSeconds;
        }

        @Override
        public void onPacket(long sendTimeMicros, long arrivalNanos) {
            double sample = (arrivalNanos - sendTimeMicros * 1000) / 1e9;
            if (sample < 0) {
                return;
            }
            oneWay = oneWay < 0 ? sample : oneWay + (sample - oneWay) / 8;
        }

        @Override
        public double rttSeconds() {
            return oneWay < 0 ? initial : Math.max(2 * oneWay + epsilon, 1e-6);
        }
    }
}
